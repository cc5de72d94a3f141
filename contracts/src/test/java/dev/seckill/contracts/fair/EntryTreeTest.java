package dev.seckill.contracts.fair;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class EntryTreeTest {
    static List<byte[]> leaves(int n) {
        List<byte[]> out = new ArrayList<>();
        for (int i = 0; i < n; i++) out.add(EntryTree.leaf(("entry " + i).getBytes(StandardCharsets.UTF_8)));
        return out;
    }

    @Test
    void theRootFollowsRfc9162_forSmallTreesWrittenOut() {
        byte[] a = EntryTree.leaf("a".getBytes(StandardCharsets.UTF_8));
        byte[] b = EntryTree.leaf("b".getBytes(StandardCharsets.UTF_8));
        byte[] c = EntryTree.leaf("c".getBytes(StandardCharsets.UTF_8));
        assertThat(EntryTree.root(List.of())).isEqualTo(Draw.sha256(new byte[0]));
        assertThat(EntryTree.root(List.of(a))).isEqualTo(a);
        assertThat(EntryTree.root(List.of(a, b))).isEqualTo(EntryTree.node(a, b));
        // three leaves split at two: (a b) c
        assertThat(EntryTree.root(List.of(a, b, c))).isEqualTo(EntryTree.node(EntryTree.node(a, b), c));
        byte[] leafA = Draw.sha256(new byte[] {0, 'a'});
        assertThat(a).isEqualTo(leafA);
    }

    @Test
    void everyLeafsProofLeadsToTheRoot_andNoOtherLeafsDoes() {
        for (int n = 1; n <= 33; n++) {
            List<byte[]> leaves = leaves(n);
            byte[] root = EntryTree.root(leaves);
            for (int i = 0; i < n; i++) {
                List<byte[]> proof = EntryTree.proof(leaves, i);
                assertThat(EntryTree.verify(leaves.get(i), i, n, proof, root))
                        .as("leaf %d of %d", i, n)
                        .isTrue();
                assertThat(EntryTree.verify(EntryTree.leaf(new byte[] {1}), i, n, proof, root))
                        .as("another leaf at %d of %d", i, n)
                        .isFalse();
                if (n > 1)
                    assertThat(EntryTree.verify(leaves.get(i), (i + 1) % n, n, proof, root))
                            .as("leaf %d of %d at another place", i, n)
                            .isFalse();
            }
        }
    }
}
