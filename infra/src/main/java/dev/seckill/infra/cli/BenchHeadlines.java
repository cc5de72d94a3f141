package dev.seckill.infra.cli;

import static dev.seckill.infra.cli.HeadlineRows.flag;
import static dev.seckill.infra.cli.HeadlineRows.n;
import static dev.seckill.infra.cli.HeadlineRows.x;
import static dev.seckill.infra.cli.ResultTables.find;
import static dev.seckill.infra.cli.ResultTables.number;
import static dev.seckill.infra.cli.ResultTables.percent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.seckill.infra.bench.Targets;
import dev.seckill.infra.cli.HeadlineTable.Check;
import dev.seckill.infra.cli.HeadlineTable.Row;
import java.util.ArrayList;
import java.util.List;

/** The headline rows of the gateway's, the buyers' and the draw's benchmarks ({@link HeadlineRows}). */
final class BenchHeadlines {
    private BenchHeadlines() {}

    static List<Row> gateway(JsonNode d) {
        List<Row> rows = new ArrayList<>();
        JsonNode first = d.at("/runs/0");
        rows.add(new Row(
                Targets.GATEWAY_CLOSED_LOOP.row + " (" + flag(d, "concurrency") + " clients, " + flag(d, "requests")
                        + " requests, " + first.path("tokens").asText().toUpperCase() + " tokens, acks=all)",
                n(first, "/closedAcceptedPerSecond", 0) + " accepted/s",
                "the gateway's own producer alone, same records and settings: " + n(d, "/rawProducerAcksPerSecond", 0)
                        + " acks/s; the HTTP floor (same generator, a server that answers 202 at once): "
                        + n(d, "/httpFloorPerSecond", 0) + "/s",
                x(d.path("ofRawProducer").asDouble(Double.NaN)) + " raw producer, "
                        + x(d.path("ofHttpFloor").asDouble(Double.NaN)) + " HTTP floor",
                List.of(Check.of(
                        Targets.GATEWAY_CLOSED_LOOP, d.path("ofRawProducer").asDouble(Double.NaN)))));
        JsonNode open = first.path("open");
        if (!open.isMissingNode()) {
            long answered = 0;
            for (JsonNode c : open.path("byStatus")) answered += c.asLong();
            long refused = answered
                    - open.path("accepted").asLong()
                    + open.path("errors").asLong();
            rows.add(new Row(
                    Targets.GATEWAY_OPEN_P99.row + " (" + flag(d, "rate") + " requests/s offered over "
                            + flag(d, "concurrency") + " connections)",
                    "p99 " + n(open, "/p99", 1) + " ms (p50 " + n(open, "/p50", 1) + ", p99.9 " + n(open, "/p999", 1)
                            + "); " + number(open.path("accepted"), 0) + " accepted",
                    "— (the write-up's absolute target)",
                    "—",
                    List.of(
                            Check.of(Targets.GATEWAY_OPEN_P99, open.path("p99").asDouble(Double.NaN)),
                            Check.zero("not accepted", refused))));
        }
        JsonNode rs = find(d.path("runs"), r -> r.path("tokens").asText().equals("rs256"));
        if (!rs.isMissingNode() && d.path("runs").size() > 1)
            rows.add(new Row(
                    "gateway, RS256 tokens against a JWKS vs HS256 (closed loop)",
                    n(rs, "/closedAcceptedPerSecond", 0) + " vs " + n(first, "/closedAcceptedPerSecond", 0)
                            + " accepted/s",
                    "the HS256 phase of the same run",
                    x(rs.path("closedAcceptedPerSecond").asDouble(Double.NaN)
                            / first.path("closedAcceptedPerSecond").asDouble(Double.NaN)),
                    List.of()));
        return rows;
    }

    static List<Row> answer(JsonNode d) {
        JsonNode row = find(d.path("intervals"), r -> r.path("commitMs").asInt() == 100);
        if (row.isMissingNode()) row = d.at("/intervals/0");
        String interval = "commit interval " + row.path("commitMs").asText() + " ms)";
        JsonNode f = row.path("figures");
        List<Row> rows = new ArrayList<>();
        rows.add(new Row(
                Targets.ANSWER_SEQUENTIAL_P50.row + " (Prefer: wait, " + interval,
                "p50 " + n(f, "/sequential/p50Ms", 1) + " ms (p99 " + n(f, "/sequential/p99Ms", 1) + ")",
                "accept p50 " + n(f, "/sequentialAcceptP50", 1) + " ms of the same load",
                "—",
                List.of(Check.of(
                        Targets.ANSWER_SEQUENTIAL_P50, f.at("/sequential/p50Ms").asDouble(Double.NaN)))));
        rows.add(new Row(
                Targets.ANSWER_OPEN_P99.row + " (" + number(d.at("/shape/rate"), 0) + " requests/s for "
                        + d.at("/shape/seconds").asText() + " s, " + interval,
                "p99 " + n(f, "/open/p99Ms", 1) + " ms (p50 " + n(f, "/open/p50Ms", 1) + ", p99.9 "
                        + n(f, "/open/p999Ms", 1) + "); "
                        + percent(f.at("/open/within100Ms")) + " knew within 100 ms",
                "accept p99 " + n(f, "/openAcceptP99", 1) + " ms in its own run",
                "—",
                List.of(Check.of(Targets.ANSWER_OPEN_P99, f.at("/open/p99Ms").asDouble(Double.NaN)))));
        if (row.path("decisionsPerSecond").isNumber()) {
            double ratio = row.path("decisionsPerSecond").asDouble(Double.NaN)
                    / d.path("rawLuaPipelinedOpsPerSecond").asDouble(Double.NaN);
            rows.add(new Row(
                    Targets.ANSWER_THROUGHPUT.row + " (" + interval,
                    n(row, "/decisionsPerSecond", 0) + " decisions/s",
                    "raw Lua pipelined " + n(d, "/rawLuaPipelinedOpsPerSecond", 0) + " ops/s",
                    x(ratio),
                    List.of(Check.of(Targets.ANSWER_THROUGHPUT, ratio))));
        }
        return rows;
    }

    static List<Row> coldstart(JsonNode d) {
        JsonNode on = find(d.path("variants"), v -> v.at("/variant/selfWarm").asBoolean());
        JsonNode warmed =
                find(d.path("variants"), v -> v.at("/variant/trafficFirst").asLong() > 0);
        JsonNode off = find(
                d.path("variants"),
                v -> !v.at("/variant/selfWarm").asBoolean()
                        && v.at("/variant/trafficFirst").asLong() == 0);
        double ratio = on.at("/sale/firstP99").asDouble(Double.NaN)
                / warmed.at("/sale/firstP99").asDouble(Double.NaN);
        double offRatio = off.at("/sale/firstP99").asDouble(Double.NaN)
                / warmed.at("/sale/firstP99").asDouble(Double.NaN);
        return List.of(new Row(
                Targets.COLD_START.row + " (" + flag(d, "requests") + " requests, " + flag(d, "concurrency")
                        + " clients)",
                "warm-up on: first-second p50 / p99 " + n(on, "/sale/firstP50", 0) + " / " + n(on, "/sale/firstP99", 0)
                        + " ms",
                "services warmed by " + n(warmed, "/variant/trafficFirst", 0) + " sale requests (first-second p99 "
                        + n(warmed, "/sale/firstP99", 0) + " ms)",
                x(ratio) + (off.isMissingNode() ? "" : " (warm-up off: " + x(offRatio) + ")"),
                List.of(Check.of(Targets.COLD_START, ratio))));
    }

    static List<Row> hostile(JsonNode d) {
        double lost = sum(d, "/claimsSameInstance/lost", "/claimsOtherInstance/lost");
        double oversold = sum(d, "/oversold");
        // accepted purchases answered 404, by their owners' look-ups and while their buyers followed them
        double notFound = sum(d, "/owners/notFound", "/notFoundWhilePolling");
        double posts = d.at("/flood/flood/posts").asDouble(Double.NaN);
        double bytes = grown(d, "usedMemory");
        double keys = grown(d, "keys");
        return List.of(
                new Row(
                        Targets.HOSTILE_FLOOD.row + " (" + flag(d, "buyers") + " buyers, " + flag(d, "stock")
                                + " units, " + flag(d, "hostile-accounts") + " hostile accounts)",
                        "FLOOD time to answer p99 " + n(d, "/flood/answerP99Ms", 0)
                                + " ms; accepted purchases told 404 "
                                + number(notFound, 0) + "; claims lost " + number(lost, 0) + "; oversold "
                                + number(oversold, 0),
                        "the same sale alone (QUIET, p99 " + n(d, "/quiet/answerP99Ms", 0) + " ms)",
                        x(d.path("floodOfQuietP99").asDouble(Double.NaN)) + " FLOOD÷QUIET p99",
                        List.of(
                                Check.of(
                                        Targets.HOSTILE_FLOOD,
                                        d.path("floodOfQuietP99").asDouble(Double.NaN)),
                                Check.zero("accepted purchases told 404", notFound),
                                Check.zero("claims lost", lost),
                                Check.zero("oversold", oversold))),
                new Row(
                        "Redis memory under that flood",
                        "+" + number(bytes / posts, 0) + " MB and " + number(keys / posts, 1)
                                + " M keys per million hostile posts (" + number(posts, 0) + " posts)",
                        "the quiet sale's growth, taken off",
                        "—",
                        List.of()));
    }

    /** The figures at {@code pointers} summed over both sales; NaN when a document lacks one (the check then fails). */
    private static double sum(JsonNode d, String... pointers) {
        double total = 0;
        for (String sale : List.of("/quiet", "/flood"))
            for (String p : pointers) total += d.at(sale + p).asDouble(Double.NaN);
        return total;
    }

    /** What Redis grew by in the flood beyond what the quiet sale grew it by. */
    private static double grown(JsonNode d, String field) {
        return d.at("/flood/redisAfter/" + field).asDouble(Double.NaN)
                - d.at("/flood/redisBefore/" + field).asDouble(Double.NaN)
                - (d.at("/quiet/redisAfter/" + field).asDouble(Double.NaN)
                        - d.at("/quiet/redisBefore/" + field).asDouble(Double.NaN));
    }

    static List<Row> strategies(JsonNode d) {
        return StrategyHeadlines.of(d);
    }

    static List<Row> fairness(JsonNode d) {
        List<Row> rows = new ArrayList<>();
        for (String sale : List.of("near vs far", "bots vs people")) {
            JsonNode fcfs = find(
                    d.path("sales"),
                    s -> s.path("sale").asText().equals(sale)
                            && s.path("mode").asText().equals("fcfs"));
            JsonNode lottery = find(
                    d.path("sales"),
                    s -> s.path("sale").asText().equals(sale)
                            && s.path("mode").asText().equals("lottery"));
            if (lottery.isMissingNode()) continue;
            rows.add(new Row(
                    "who wins the opening, " + sale + ": " + n(lottery, "/groupA/buyers", 0) + " "
                            + lottery.at("/groupA/name").asText() + " and " + n(lottery, "/groupB/buyers", 0) + " "
                            + lottery.at("/groupB/name").asText() + " " + flag(d, "delay-ms") + " ms later, "
                            + flag(d, "units") + " units",
                    "fcfs: " + won(fcfs) + "; lottery: " + won(lottery) + " (P(split | fair) "
                            + number(lottery.path("pSplitIfFair"), 3) + "), draw answered p50 / p99 "
                            + n(lottery, "/answerP50Ms", 0) + " / " + n(lottery, "/answerP99Ms", 0) + " ms",
                    "a fair draw's 99% interval for "
                            + lottery.at("/groupA/name").asText() + ": [" + n(lottery, "/interval99A/low", 0) + ", "
                            + n(lottery, "/interval99A/high", 0) + "]",
                    "—",
                    List.of(new Check(
                            "lottery inside the interval, its draw verified over every buyer sent",
                            lottery.path("fair").asBoolean(),
                            ""))));
        }
        return rows;
    }

    private static String won(JsonNode sale) {
        if (sale.isMissingNode()) return "-";
        return sale.at("/groupA/name").asText() + " " + n(sale, "/groupA/won", 0) + " ("
                + number(sale.at("/groupA/wonPerBuyer"), 3) + " per buyer) / "
                + sale.at("/groupB/name").asText()
                + " " + n(sale, "/groupB/won", 0) + " (" + number(sale.at("/groupB/wonPerBuyer"), 3) + ")";
    }

    static List<Row> tokens(JsonNode d) {
        JsonNode t = d.path("microsPerToken");
        String rsNew = "/RS256 forgedNew/micros";
        String esNew = "/ES256 forgedNew/micros";
        return List.of(new Row(
                "what a buyer token costs the gateway (JMH, one thread; nimbus-jose-jwt against a JWKS file)",
                "a new token (forged, a full check) RS256 " + n(t, rsNew, 1) + " µs, ES256 " + n(t, esNew, 0)
                        + " µs; the same forged token again " + n(t, "/RS256 forgedAgain/micros", 2) + " / "
                        + n(t, "/ES256 forgedAgain/micros", 2) + " µs; a token verified before "
                        + n(t, "/RS256 verifiedBefore/micros", 2) + " / " + n(t, "/ES256 verifiedBefore/micros", 2),
                "the full check of the same run",
                x(t.at(rsNew).asDouble(Double.NaN)
                                / t.at("/RS256 forgedAgain/micros").asDouble(Double.NaN)) + " (RS256) and "
                        + x(t.at(esNew).asDouble(Double.NaN)
                                / t.at("/ES256 forgedAgain/micros").asDouble(Double.NaN))
                        + " (ES256) cheaper for a repeated forgery",
                List.of()));
    }
}
