package dev.seckill.contracts.fair;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class DrawTest {
    static final byte[] DIGEST = Draw.sha256("entries".getBytes(StandardCharsets.UTF_8));
    static final byte[] RANDOMNESS = Draw.sha256("a beacon round's signature".getBytes(StandardCharsets.UTF_8));

    @Test
    void theSeedIsThePublishedFunctionOfTheGoodsTheEntriesAndTheBeacon() throws Exception {
        byte[] seed = Draw.seed(7, DIGEST, RANDOMNESS);
        byte[] expected = MessageDigest.getInstance("SHA-256")
                .digest(("seckill-draw:v2:7:" + Draw.hex(DIGEST) + ":" + Draw.hex(RANDOMNESS))
                        .getBytes(StandardCharsets.UTF_8));
        assertThat(seed).isEqualTo(expected);
        assertThat(Draw.seed(8, DIGEST, RANDOMNESS)).isNotEqualTo(seed);
        assertThat(Draw.seed(7, Draw.sha256(DIGEST), RANDOMNESS))
                .as("one entry more or less changes the digest, and the seed")
                .isNotEqualTo(seed);
        assertThat(Draw.seed(7, DIGEST, Draw.sha256(RANDOMNESS)))
                .as("another beacon round")
                .isNotEqualTo(seed);
    }

    @Test
    void theOrderIsAPermutationOfTheBuyers_oneTicketEach_thesameForTheSameSeed() {
        byte[] seed = Draw.seed(7, DIGEST, RANDOMNESS);
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
        Collections.reverse(reversed);
        assertThat(Draw.order(seed, 7, reversed))
                .as("arrival order does not matter")
                .isEqualTo(order);
    }

    @Test
    void aBuyersPlaceIsUniformOverBeaconRounds_withinTheBinomialBounds() {
        // 10 buyers, 20,000 draws: buyer 1 first in ~2,000; 99.9% interval of Binomial(20000, 0.1) is about ±140
        int first = 0;
        for (int i = 0; i < 20_000; i++) {
            byte[] seed = Draw.seed(7, DIGEST, Draw.sha256(("round " + i).getBytes(StandardCharsets.UTF_8)));
            if (Draw.order(seed, 7, LongStream.rangeClosed(1, 10).boxed().toList())
                            .get(0)
                    == 1L) first++;
        }
        assertThat(first).isBetween(1_860, 2_140);
    }

    @Test
    void theTicketIsThePublishedFunction() throws Exception {
        byte[] seed = Draw.unhex("00".repeat(32));
        var sha = MessageDigest.getInstance("SHA-256");
        sha.update(seed);
        sha.update("7:42".getBytes(StandardCharsets.UTF_8));
        assertThat(Draw.ticket(seed, 7, 42)).isEqualTo(Draw.hex(sha.digest()));
    }
}
