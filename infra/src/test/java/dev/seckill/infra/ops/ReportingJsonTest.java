package dev.seckill.infra.ops;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.contracts.outcome.OutcomeKind;
import dev.seckill.infra.harness.Namespaces;
import dev.seckill.reconcile.GoodsDrift;
import dev.seckill.reconcile.Reconciler;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code --json} of {@code namespaces}, {@code reconcile} and {@code replay}: the document parses and holds the numbers
 * the text shows, made from the same values.
 */
@Tag("fast")
class ReportingJsonTest {
    final ObjectMapper mapper = new ObjectMapper();

    @Test
    void namespaces_theSameRowsAsTheTable() throws Exception {
        List<Namespaces.Entry> entries = List.of(
                new Namespaces.Entry("seckill.", 9, true, true), new Namespaces.Entry("drill-a", 7, false, false));
        String text = NamespaceCommands.text(entries);
        JsonNode json = mapper.readTree(NamespaceCommands.json(entries));
        assertThat(text).contains("seckill.").containsPattern("drill-a +7  no");
        assertThat(json.get("namespaces")).hasSize(2);
        JsonNode live = json.get("namespaces").get(0);
        assertThat(live.get("name").asText()).isEqualTo("seckill.");
        assertThat(live.get("topics").asInt()).isEqualTo(9);
        assertThat(live.get("database").asBoolean()).isTrue();
        assertThat(live.get("live").asBoolean()).isTrue();
        assertThat(json.get("namespaces").get(1).get("database").asBoolean()).isFalse();
        assertThat(text).containsPattern("seckill\\. +9  yes +\\(live\\)");
    }

    @Test
    void reconcile_theSummarysColumnsPerGoods_nullWhereTheTextShowsADash() throws Exception {
        GoodsDrift drifted =
                new GoodsDrift(1001, 1000, 620, 20, 400, 600, 600, 399L, 600L, 400L, 600L, 600L, 400L, false, 0);
        GoodsDrift ended = new GoodsDrift(1002, 10, 10, 0, 0, 10, 10, null, null, 0L, 10L, 10L, 0L, true, 0);
        List<Reconciler.Row> rows = List.of(
                new Reconciler.Row(drifted, true, List.of("restore 1")), new Reconciler.Row(ended, true, List.of()));
        String text = Reconciler.render(rows);
        JsonNode json = mapper.readTree(ReconcileCommand.json("seckill.", true, rows));
        assertThat(json.get("dryRun").asBoolean()).isTrue();
        assertThat(json.get("allOk").asBoolean())
                .isEqualTo(rows.stream().allMatch(r -> r.verdict().equals("OK")));
        JsonNode first = json.get("goods").get(0);
        String firstLine =
                text.lines().filter(l -> l.startsWith("1001")).findFirst().orElseThrow();
        for (String field :
                List.of("opened", "deducted", "released", "ledgerStock", "ledgerLiveBuyers", "redisStock", "dbStock"))
            assertThat(firstLine).as(field).contains(" " + first.get(field).asLong() + " ");
        assertThat(first.get("redisStock").asLong()).isEqualTo(399);
        assertThat(first.get("verdict").asText()).isEqualTo(rows.get(0).verdict());
        assertThat(firstLine).contains(rows.get(0).verdict()).endsWith("restore 1");
        assertThat(first.get("repairs").get(0).asText()).isEqualTo("restore 1");
        JsonNode second = json.get("goods").get(1);
        assertThat(second.get("redisStock").isNull()).isTrue();
        assertThat(text.lines().filter(l -> l.startsWith("1002")).findFirst().orElseThrow())
                .containsPattern("\\| +- +- \\|");
    }

    @Test
    void replay_theComparisonsCounts_andEveryDifferenceWithBothOutcomes() throws Exception {
        Instant t = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        Outcome was = Outcome.of("r-1", 1001, 7, 1, OutcomeKind.SUCCESS, null, 4, t, t, 0, 10);
        Outcome now = Outcome.of("r-1", 1001, 7, 1, OutcomeKind.SOLD_OUT, "sold_out", 0, t, t, 0, 11);
        List<ReplayDrill.Difference> differences = List.of(
                new ReplayDrill.Difference("r-1", was, now, "SUCCESS -> SOLD_OUT"),
                new ReplayDrill.Difference("r-2", null, now, "no recorded outcome"));
        ReplayDrill.Result r =
                new ReplayDrill.Result(12_345, 12_000, 11_990, 8, differences, Set.of(1002L), Duration.ofMillis(2_500));
        String text = ReplayCommand.text(r);
        JsonNode json = mapper.readTree(ReplayCommand.json("d1", r));
        assertThat(text)
                .contains(String.format("copied %,d commands (%,d purchases)", 12_345, 12_000))
                .contains(String.format(
                        "%,d decisions/s", json.get("decisionsPerSecond").asLong()))
                .contains(String.format(
                        "identical %,d   differing %d   same outcome, other stock after %d",
                        json.get("identical").asLong(),
                        json.get("differing").asInt(),
                        json.get("shifted").asLong()))
                .contains("  r-1: SUCCESS -> SOLD_OUT");
        assertThat(json.get("drill").asText()).isEqualTo("d1");
        assertThat(json.get("copied").asLong()).isEqualTo(12_345);
        assertThat(json.get("purchases").asLong()).isEqualTo(12_000);
        assertThat(json.get("tookMs").asLong()).isEqualTo(2_500);
        assertThat(json.get("decisionsPerSecond").asLong()).isEqualTo(4_800);
        assertThat(json.get("differences")).hasSize(2);
        assertThat(json.get("differences").get(0).get("recorded").get("outcome").asText())
                .isEqualTo("SUCCESS");
        assertThat(json.get("differences").get(0).get("drill").get("reason").asText())
                .isEqualTo("sold_out");
        assertThat(json.get("differences").get(1).get("recorded").isNull()).isTrue();
        assertThat(json.get("goodsWithoutOpen").get(0).asLong()).isEqualTo(1002);
    }
}
