package dev.seckill.infra.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.seckill.infra.harness.audit.StrategyAudit;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** {@code chaos --json}: the scenario results parse and hold the numbers of the text table, made from the same results. */
@Tag("fast")
class ChaosJsonTest {
    @Test
    void theScenarioResults_asJson_holdTheTablesNumbers() throws Exception {
        List<ChaosRun.Result> results = List.of(
                new ChaosRun.Result(
                        ChaosScenario.ALL.get(0),
                        8_000,
                        8_000,
                        300,
                        new StrategyAudit(300, 0, 0, 0, 300, 0, 0),
                        3,
                        List.of(1_250L, -1L, 830L),
                        null),
                new ChaosRun.Result(
                        ChaosScenario.ALL.get(1),
                        8_000,
                        7_990,
                        299,
                        new StrategyAudit(298, 2, 0, 0, 299, 1, 0),
                        2,
                        List.of(),
                        "an order lost"));
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        ChaosCommand.print(new PrintStream(text, true, StandardCharsets.UTF_8), results, 1);
        JsonNode json = new ObjectMapper()
                .readTree(ChaosCommand.json(results, 1, java.util.Map.of("scenario", "kill-stream", "json", "true")));

        assertThat(json.get("brokers").asInt()).isEqualTo(1);
        assertThat(json.path("flags").path("scenario").asText())
                .as("the command's flags")
                .isEqualTo("kill-stream");
        assertThat(json.path("flags").has("json")).isFalse();
        assertThat(json.get("passed").asBoolean()).isFalse();
        List<String> rows = text.toString(StandardCharsets.UTF_8).lines().toList();
        for (int i = 0; i < results.size(); i++) {
            JsonNode s = json.get("scenarios").get(i);
            String name = s.get("scenario").asText();
            assertThat(name).isEqualTo(results.get(i).scenario().name());
            String row = rows.stream()
                    .filter(l -> l.startsWith(name + " "))
                    .findFirst()
                    .orElseThrow();
            String[] cells = row.trim().split(" +");
            assertThat(cells[1]).as("faults").isEqualTo(s.get("faults").asText());
            assertThat(cells[2].replace(",", ""))
                    .as("requests")
                    .isEqualTo(s.get("requests").asText());
            assertThat(cells[3].replace(",", ""))
                    .as("answered")
                    .isEqualTo(s.get("answered").asText());
            assertThat(cells[4]).as("SUCCESS").isEqualTo(s.get("successes").asText());
            assertThat(cells[5]).as("orders").isEqualTo(s.get("orders").asText());
            assertThat(cells[6]).as("oversold").isEqualTo(s.get("oversold").asText());
            assertThat(cells[7]).as("lost").isEqualTo(s.get("lost").asText());
            assertThat(cells[8]).as("dup").isEqualTo(s.get("duplicateBuyers").asText());
            assertThat(cells[9]).as("f.dup").isEqualTo(s.get("falseDuplicates").asText());
            assertThat(cells[11]).as("verdict").isEqualTo(s.get("passed").asBoolean() ? "PASS" : "FAIL");
        }
        JsonNode first = json.get("scenarios").get(0);
        assertThat(first.get("recoveredInMs")).hasSize(3);
        assertThat(first.get("recoveredInMs").get(0).asLong()).isEqualTo(1_250);
        assertThat(first.get("recoveredInMs").get(1).isNull()).as("never").isTrue();
        assertThat(rows).anyMatch(l -> l.contains("1,250/never/830"));
        assertThat(json.get("scenarios").get(1).get("failure").asText()).isEqualTo("an order lost");
    }
}
