package dev.seckill.contracts.fair;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class DrawTest {
    static final byte[] SECRET = "a-stream-secret-of-this-test-0123456789".getBytes(StandardCharsets.UTF_8);
    static final long START = 1_780_000_000_000L;

    @Test
    void givenTheSameSecretGoodsAndOpId_thenTheSameSeed_andAnyOtherChangesIt() {
        byte[] seed = Draw.seed(SECRET, 7, "open-7", START);
        assertThat(Draw.seed(SECRET, 7, "open-7", START)).isEqualTo(seed);
        assertThat(Draw.seed(SECRET, 8, "open-7", START)).isNotEqualTo(seed);
        assertThat(Draw.seed(SECRET, 7, "open-7b", START)).isNotEqualTo(seed);
        assertThat(Draw.seed(SECRET, 7, "open-7", START + 1))
                .as("the same opId reused for a sale with another start")
                .isNotEqualTo(seed);
        assertThat(Draw.seed("another-secret-0123456789abcdef".getBytes(), 7, "open-7", START))
                .isNotEqualTo(seed);
    }

    @Test
    void theCommitmentOpensOnlyWithItsSeed() {
        byte[] seed = Draw.seed(SECRET, 7, "open-7", START);
        String commitment = Draw.commitment(seed);
        assertThat(commitment).hasSize(64);
        assertThat(Draw.opens(commitment, seed)).isTrue();
        assertThat(Draw.opens(commitment, Draw.seed(SECRET, 7, "open-8", START)))
                .isFalse();
        assertThat(Draw.opens(null, seed)).isFalse();
    }

    @Test
    void theOrderIsAPermutationOfTheBuyers_oneTicketEach_thesameForTheSameSeed() {
        byte[] seed = Draw.seed(SECRET, 7, "open-7", START);
        List<Long> buyers =
                new ArrayList<>(LongStream.rangeClosed(1, 1000).boxed().toList());
        buyers.addAll(List.of(5L, 5L, 9L)); // repeats: still one ticket
        List<Long> order = Draw.order(seed, 7, buyers);
        assertThat(order)
                .hasSize(1000)
                .doesNotHaveDuplicates()
                .containsExactlyInAnyOrderElementsOf(
                        LongStream.rangeClosed(1, 1000).boxed().toList());
        assertThat(order).isNotEqualTo(LongStream.rangeClosed(1, 1000).boxed().toList());
        List<Long> reversed = new ArrayList<>(buyers);
        java.util.Collections.reverse(reversed);
        assertThat(Draw.order(seed, 7, reversed))
                .as("arrival order does not matter")
                .isEqualTo(order);
    }

    @Test
    void aBuyersPlaceIsUniformOverSeeds_withinTheBinomialBounds() {
        // 10 buyers, 20,000 draws: buyer 1 first in ~2,000; 99.9% interval of Binomial(20000, 0.1) is about ±140
        int first = 0;
        for (int i = 0; i < 20_000; i++) {
            byte[] seed = Draw.seed(SECRET, 7, "open-" + i, START);
            if (Draw.order(seed, 7, LongStream.rangeClosed(1, 10).boxed().toList())
                            .get(0)
                    == 1L) first++;
        }
        assertThat(first).isBetween(1_860, 2_140);
    }

    @Test
    void theTicketIsThePublishedFunction() throws Exception {
        byte[] seed = Draw.unhex("00".repeat(32));
        var sha = java.security.MessageDigest.getInstance("SHA-256");
        sha.update(seed);
        sha.update("7:42".getBytes(StandardCharsets.UTF_8));
        assertThat(Draw.ticket(seed, 7, 42)).isEqualTo(Draw.hex(sha.digest()));
    }
}
