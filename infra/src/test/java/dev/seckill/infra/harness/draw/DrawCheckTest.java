package dev.seckill.infra.harness.draw;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.fair.Fairness;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The winners {@code draw verify} expects are those the decision gives: one live purchase per buyer, ids decided once. */
@Tag("fast")
class DrawCheckTest {
    static final Instant T = Instant.now().truncatedTo(ChronoUnit.SECONDS);

    static Purchase p(String rid, long user, int quantity) {
        return new Purchase(rid, 7, user, quantity, T.plusMillis(5));
    }

    @Test
    void aBuyerWinsOnce_evenUnderALimitOfTwo_andARequestIdIsDecidedOnlyForItsFirstBuyerInTheDraw() {
        OpenSale open = new OpenSale(7, 3, T, T.plusSeconds(60), 2, "o", false, Fairness.LOTTERY, 1_000);
        Map<Long, List<Purchase>> byBuyer = new LinkedHashMap<>();
        byBuyer.put(1L, List.of(p("a1", 1, 1), p("a2", 1, 1))); // the second is DUPLICATE: buyer 1 holds a1
        byBuyer.put(2L, List.of(p("shared", 2, 1)));
        byBuyer.put(3L, List.of(p("shared", 3, 1), p("c2", 3, 1))); // "shared" is buyer 2's: refused; c2 wins
        byBuyer.put(4L, List.of(p("d1", 4, 3), p("d2", 4, 1))); // 3 units over the limit of 2: refused; d2 sold out

        assertThat(DrawOutcomes.winners(open, List.of(1L, 2L, 3L, 4L), byBuyer, Set.of()))
                .containsExactly("a1", "shared", "c2");
    }

    @Test
    void aRequestIdDecidedInAnEarlierSaleOfTheGoodsIsNoWinner_notAFalseAlarm() {
        OpenSale open = new OpenSale(7, 2, T, T.plusSeconds(60), 1, "o", false, Fairness.LOTTERY, 1_000);
        Map<Long, List<Purchase>> byBuyer = new LinkedHashMap<>();
        byBuyer.put(1L, List.of(p("reused", 1, 1))); // decided in the earlier sale: the stream refuses the reuse
        byBuyer.put(2L, List.of(p("b1", 2, 1)));
        byBuyer.put(3L, List.of(p("c1", 3, 1)));

        assertThat(DrawOutcomes.winners(open, List.of(1L, 2L, 3L), byBuyer, Set.of("reused")))
                .containsExactly("b1", "c1");
    }
}
