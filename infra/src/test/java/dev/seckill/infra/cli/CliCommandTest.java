package dev.seckill.infra.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.seckill.infra.harness.Flags;
import dev.seckill.infra.harness.stack.Component;
import dev.seckill.infra.ops.StatusCommand;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("fast")
class CliCommandTest {
    @Test
    void aCommandParsesTheFlagsItDeclaresAfterItsWords() {
        Flags f = CliCommands.SALE_OPEN.parse(
                new String[] {"sale", "open", "--goods", "1001", "--stock", "5", "--force"});
        assertThat(f.getLong("goods", 0)).isEqualTo(1001);
        assertThat(f.has("force")).isTrue();
        assertThatThrownBy(() -> CliCommands.SALE_CLOSE.parse(new String[] {"sale", "close", "--stock", "5"}))
                .isInstanceOf(Flags.UsageError.class)
                .hasMessage("unknown flag --stock");
        assertThatThrownBy(() -> CliCommands.RECONCILE.parse(new String[] {"reconcile", "--goods"}))
                .isInstanceOf(Flags.UsageError.class)
                .hasMessage("--goods needs a value");
    }

    @Test
    void theUsageShowsRequiredFlagsThenOptionalOnesAndSwitches() {
        assertThat(CliCommands.SALE_OPEN.usage())
                .isEqualTo(
                        "sale open --goods N --stock N [--minutes N --limit N --start-in-seconds N --force --fairness fcfs|lottery|registration --window-ms N --buckets N --namespace NAME --json]");
        assertThat(LauncherCommands.RUN.usage()).isEqualTo("run <service>");
        assertThat(BenchCommands.BENCH_ORDERS.flagNames())
                .containsExactlyInAnyOrder("orders", "batch", "raw-single", "warmup", "json");
    }

    @Test
    void everyCommandAnswersHelp_withItsOwnFlags_andExitsZero() {
        var out = new java.io.ByteArrayOutputStream();
        int code = Seckill.run(new String[] {"bench", "decide", "--help"}, new java.io.PrintStream(out, true));
        assertThat(code).isZero();
        assertThat(out.toString())
                .startsWith("usage: ./seckill " + BenchCommands.BENCH_DECIDE.usage() + "\n")
                .contains(BenchCommands.BENCH_DECIDE.summary())
                .doesNotContain("bench orders");
        for (CliCommand c : CliCommands.all())
            assertThat(CliHelp.named(java.util.List.of((c.words() + " --help").split(" "))))
                    .as(c.words())
                    .isEqualTo(c);
        assertThat(CliHelp.named(java.util.List.of("help-me"))).isNull();
    }

    @Test
    void aGroupsHelp_saleOrBench_printsEachOfItsCommands_andExitsZero() {
        for (String[] args : new String[][] {{"sale", "--help"}, {"help", "sale"}, {"help", "bench"}, {"dlq", "-h"}}) {
            var out = new java.io.ByteArrayOutputStream();
            assertThat(Seckill.run(args, new java.io.PrintStream(out, true)))
                    .as(String.join(" ", args))
                    .isZero();
            String group = args[0].equals("help") ? args[1] : args[0];
            for (CliCommand c : CliCommands.all())
                if (c.words().startsWith(group + " "))
                    assertThat(out.toString()).as(String.join(" ", args)).contains("usage: ./seckill " + c.usage());
            assertThat(out.toString()).doesNotContain("unknown command");
        }
    }

    @Test
    void statusPrintsEachComponent_orOneJsonDocument_exitOneWhenOneIsDown_andAnUnknownFlagIsAUsageError() {
        List<Component> components = List.of(
                new Component("kafka", "127.0.0.1:19092", true, ""),
                new Component("order-writer", "127.0.0.1:9403", false, "metrics http://127.0.0.1:9403/metrics"));
        var text = new java.io.ByteArrayOutputStream();
        assertThat(StatusCommand.run(
                        components,
                        CliCommands.STATUS.parse(new String[] {"status"}),
                        new java.io.PrintStream(text, true)))
                .isEqualTo(1);
        assertThat(text.toString()).contains("kafka         127.0.0.1:19092        UP", "order-writer  127.0.0.1:9403");
        var json = new java.io.ByteArrayOutputStream();
        StatusCommand.run(
                components.subList(0, 1),
                CliCommands.STATUS.parse(new String[] {"status", "--json"}),
                new java.io.PrintStream(json, true));
        var doc = dev.seckill.contracts.Json.read(json.toByteArray(), com.fasterxml.jackson.databind.JsonNode.class);
        assertThat(doc.path("components").get(0).path("state").asText()).isEqualTo("UP");
        assertThat(doc.path("allUp").asBoolean()).isTrue();
        var err = new java.io.ByteArrayOutputStream();
        assertThat(Seckill.run(new String[] {"status", "--jsn"}, new java.io.PrintStream(err, true)))
                .isEqualTo(2);
    }

    @Test
    void theVersionIsTheProjects_andAnUnknownFlagOfDownIsAUsageError() {
        var out = new java.io.ByteArrayOutputStream();
        assertThat(Seckill.run(new String[] {"--version"}, new java.io.PrintStream(out, true)))
                .isZero();
        assertThat(out.toString()).matches("seckill \\d+\\.\\d+\\.\\d+.*\\n");
        assertThatThrownBy(() -> CliCommands.DOWN.parse(new String[] {"down", "--bogus"}))
                .isInstanceOf(Flags.UsageError.class)
                .hasMessage("unknown flag --bogus");
    }

    @Test
    void everyNumericFlagOfEveryCommand_refusesANonNumber_naming_theFlag() {
        int checked = 0;
        for (CliCommand c : CliCommands.all()) {
            for (CliCommand.Option o : c.options()) {
                if (!o.number() && !o.numbers()) continue;
                String[] args = (c.words() + " --" + o.name() + " x").split(" ");
                assertThatThrownBy(() -> c.parse(args))
                        .as(c.words() + " --" + o.name() + " x")
                        .isInstanceOf(Flags.UsageError.class)
                        .hasMessageStartingWith("--" + o.name() + " must be ")
                        .hasMessageEndingWith(", got 'x'");
                checked++;
            }
        }
        assertThat(checked).as("numeric flags declared").isGreaterThan(60);
        assertThat(CliCommands.LOAD
                        .parse("load --repeat-ratio 0.25 --goods 1001,1002 --rate 1,000".split(" "))
                        .getDouble("repeat-ratio"))
                .isEqualTo(0.25);
        assertThat(BenchCommands.BENCH_ANSWER
                        .parse("bench answer --commit-intervals 20,50".split(" "))
                        .get("commit-intervals"))
                .isEqualTo("20,50");
        assertThatThrownBy(() -> CliCommands.REPLAY.parse("replay --as d --goods 1001,x".split(" ")))
                .isInstanceOf(Flags.UsageError.class)
                .hasMessage("--goods must be numbers separated by commas, got '1001,x'");
        assertThat(CliCommands.CHAOS.options().stream().filter(o -> !o.number() && !o.numbers()))
                .extracting(CliCommand.Option::name)
                .containsExactlyInAnyOrder("scenario", "json");
    }

    @Test
    void benchDecide_withANonNumericCount_exitsTwoWithOneLine_beforeTouchingAnyServer() {
        var out = new java.io.ByteArrayOutputStream();
        var err = new java.io.ByteArrayOutputStream();
        java.io.PrintStream savedErr = System.err;
        System.setErr(new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8));
        int code;
        try {
            code = Seckill.run(new String[] {"bench", "decide", "--commands", "x"}, new java.io.PrintStream(out, true));
        } finally {
            System.setErr(savedErr);
        }
        assertThat(code).isEqualTo(2);
        assertThat(out.toString()).isEmpty();
        assertThat(err.toString(java.nio.charset.StandardCharsets.UTF_8))
                .isEqualTo("seckill: --commands must be a number, got 'x'\n");
    }

    @Test
    void theReportingCommandsShareOneJsonFlag_andTheirHelpSaysWhatItDoes() {
        for (CliCommand c : java.util.List.of(
                CliCommands.REPORT,
                CliCommands.NAMESPACES,
                CliCommands.RECONCILE,
                CliCommands.REPLAY,
                CliCommands.CHAOS,
                CliCommands.SQL,
                CliCommands.LOAD)) {
            assertThat(c.options()).as(c.words()).contains(CliCommands.JSON);
            assertThat(CliHelp.help(c)).as(c.words()).endsWith("\n" + CliHelp.JSON);
        }
    }
}
