package dev.seckill.infra.bench.tokens;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code bench tokens} measures what it says: each case of {@link TokenCosts} does what its name claims against a real
 * JWKS (the token verified before is accepted, a new forged token is refused for its signature, the same forged token
 * again is refused by the same words), for both algorithms; and the table's ratios come from the measured costs.
 */
@Tag("fast")
class TokensBenchmarkTest {
    @Test
    void everyCaseIsWhatItsNameSays() throws Exception {
        for (String algorithm : TokensBenchmark.ALGORITHMS) {
            TokenCosts costs = new TokenCosts();
            costs.algorithm = algorithm;
            costs.keys();
            try {
                assertThat(costs.verifiedBefore()).as(algorithm).isEqualTo(1);
                assertThat(costs.forgedNew()).as(algorithm).isEqualTo("bad token signature");
                assertThat(costs.forgedNew()).as(algorithm).isEqualTo("bad token signature");
                assertThat(costs.fullChecks())
                        .as("the buyer's once, each new forgery")
                        .isEqualTo(3);
                assertThat(costs.verifiedBefore()).as(algorithm).isEqualTo(1);
                for (int i = 0; i < 3; i++)
                    assertThat(costs.forgedAgain()).as(algorithm).isEqualTo("bad token signature");
                assertThat(costs.fullChecks())
                        .as("the repeated forgery checked once")
                        .isEqualTo(4);
            } finally {
                costs.close();
            }
        }
    }

    @Test
    void theRatiosComeFromTheCosts() {
        Map<String, TokensBenchmark.Cost> costs = new LinkedHashMap<>();
        costs.put("RS256 verifiedBefore", new TokensBenchmark.Cost(0.5, 0.01));
        costs.put("RS256 forgedNew", new TokensBenchmark.Cost(120, 3));
        costs.put("RS256 forgedAgain", new TokensBenchmark.Cost(1.5, Double.NaN));
        String table = TokensBenchmark.table(costs);
        assertThat(table)
                .contains("RS256    forgedNew                120.00         3.00")
                .contains("RS256    forgedAgain                1.50            -")
                .contains("RS256: a forged token again ×80 cheaper than a new one (1.50 vs 120.00 µs); a buyer's token"
                        + " verified before ×240 cheaper than a full check")
                .doesNotContain("ES256:");
    }
}
