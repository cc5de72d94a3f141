package dev.seckill.contracts.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.contracts.fair.Fairness;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Random;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@Tag("fast")
class CommandCodecTest {
    static final Instant T = Instant.parse("2026-11-29T10:00:00.123Z");

    @Test
    void everyCommandRoundTrips() {
        Command[] all = {
            new Purchase("r-1", 1001, 7, 2, T),
            new OpenSale(1001, 1000, T, T.plusSeconds(60), 2, "op-1", true),
            new OpenSale(1001, 1000, T, T.plusSeconds(60), 1, "op-2", false, Fairness.LOTTERY, 2_000),
            new OpenSale(1001, 1000, T, T.plusSeconds(60), 1, "op-3", false, Fairness.REGISTRATION, 600_000),
            new OpenSale(1001, 1000, T, T.plusSeconds(60), 1, "op-4", false, Fairness.FCFS, 0, 4),
            new Release(1001, 7, 2, 55L, "r-1", "payment_timeout", "rel-55"),
            new CloseSale(1001, "close-1"),
            new Restore(1001, "restore-1")
        };
        for (Command c : all) {
            assertThat(CommandCodec.decode(CommandCodec.encode(c))).isEqualTo(new ParsedCommand.Valid(c));
        }
        assertThat(new String(CommandCodec.encode(all[0]), StandardCharsets.UTF_8))
                .contains("\"v\":1", "\"type\":\"purchase\"");
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "{oops                                                                   | malformed JSON",
                "[1,2]                                                                   | malformed JSON: not an object",
                "{\"v\":2,\"type\":\"purchase\"}                                          | unsupported v: 2",
                "{\"goodsId\":1}                                                         | missing type",
                "{\"type\":\"teleport\",\"goodsId\":1}                                   | unknown type: teleport",
                "{\"type\":\"purchase\",\"goodsId\":-1,\"requestId\":\"a\"}              | goodsId missing or not a positive integer",
                "{\"type\":\"purchase\",\"goodsId\":1,\"requestId\":\"bad id!\"}         | requestId missing or not 1-64 of [A-Za-z0-9._:-]",
                "{\"type\":\"open_sale\",\"goodsId\":1,\"opId\":\"o\",\"stock\":-5}       | stock missing or negative",
                "{\"type\":\"release\",\"goodsId\":1,\"opId\":\"o\",\"userId\":2,\"reason\":\"whim\"} | reason missing or not one of",
                "{\"type\":\"close_sale\",\"goodsId\":1}                                 | opId missing or invalid",
                "{\"type\":\"open_sale\",\"goodsId\":1,\"opId\":\"o\",\"stock\":5,\"startAt\":\"2026-11-29T10:00:00Z\",\"endAt\":\"2026-11-29T11:00:00Z\",\"fairness\":\"raffle\"} | fairness is not fcfs, lottery or registration",
                "{\"type\":\"open_sale\",\"goodsId\":1,\"opId\":\"o\",\"stock\":5,\"startAt\":\"2026-11-29T10:00:00Z\",\"endAt\":\"2026-11-29T11:00:00Z\",\"fairness\":\"registration\"} | windowMs of a registration not in 1..600000",
                "{\"type\":\"open_sale\",\"goodsId\":1,\"opId\":\"o\",\"stock\":5,\"startAt\":\"2026-11-29T10:00:00Z\",\"endAt\":\"2026-11-29T11:00:00Z\",\"fairness\":\"lottery\"} | windowMs of a lottery not in 1..600000",
                "{\"type\":\"open_sale\",\"goodsId\":1,\"opId\":\"o\",\"stock\":5,\"startAt\":\"2026-11-29T10:00:00Z\",\"endAt\":\"2026-11-29T10:00:01Z\",\"fairness\":\"lottery\",\"windowMs\":5000} | the lottery's window must close before endAt",
                "{\"type\":\"open_sale\",\"goodsId\":1,\"opId\":\"o\",\"stock\":5,\"startAt\":\"2026-11-29T10:00:00Z\",\"endAt\":\"2026-11-29T11:00:00Z\",\"windowMs\":5000} | windowMs is only for a lottery"
            })
    void poisonSaysWhy(String json, String reason) {
        ParsedCommand p = CommandCodec.decode(json.strip().getBytes(StandardCharsets.UTF_8));
        assertThat(p).isInstanceOf(ParsedCommand.Poison.class);
        assertThat(((ParsedCommand.Poison) p).reason()).startsWith(reason.strip());
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "{\"type\":\"purchase\",\"goodsId\":1,\"requestId\":\"a\",\"userId\":0,\"quantity\":1,\"acceptedAt\":\"2026-11-29T10:00:00Z\"} | userId",
                "{\"type\":\"purchase\",\"goodsId\":1,\"requestId\":\"a\",\"userId\":3,\"quantity\":0,\"acceptedAt\":\"2026-11-29T10:00:00Z\"} | quantity",
                "{\"type\":\"purchase\",\"goodsId\":1,\"requestId\":\"a\",\"userId\":3,\"quantity\":101,\"acceptedAt\":\"2026-11-29T10:00:00Z\"} | quantity",
                "{\"type\":\"purchase\",\"goodsId\":1,\"requestId\":\"a\",\"userId\":3,\"quantity\":1,\"acceptedAt\":\"yesterday\"} | acceptedAt"
            })
    void aPurchaseWithAUsableRequestIdButBadFieldsIsAnsweredNotDropped(String json, String field) {
        ParsedCommand p = CommandCodec.decode(json.strip().getBytes(StandardCharsets.UTF_8));
        assertThat(p).isInstanceOf(ParsedCommand.InvalidPurchase.class);
        ParsedCommand.InvalidPurchase ip = (ParsedCommand.InvalidPurchase) p;
        assertThat(ip.requestId()).isEqualTo("a");
        assertThat(ip.reason()).startsWith(field.strip());
    }

    @Test
    void anOpWhoseOpIdBeginsAsTheStreamsOwnIsPoison() {
        for (Command c : new Command[] {
            new CloseSale(1001, "borrow:1001:1:7"),
            new Release(1001, 7, 1, null, null, "cancelled", "borrow:1001:1:7:in"),
            new OpenSale(1001, 10, T, T.plusSeconds(60), 1, "borrow:x", false)
        }) {
            ParsedCommand parsed = CommandCodec.decode(CommandCodec.encode(c));
            org.junit.jupiter.api.Assertions.assertInstanceOf(ParsedCommand.Poison.class, parsed, c.toString());
        }
        org.junit.jupiter.api.Assertions.assertInstanceOf(
                ParsedCommand.Valid.class, CommandCodec.decode(CommandCodec.encode(new CloseSale(1001, "borrowed"))));
    }

    @Test
    void anOpenOfOneBucketWritesNoBucketsAndBadBucketsArePoison() {
        String one = new String(CommandCodec.encode(new OpenSale(1001, 10, T, T.plusSeconds(60), 1, "op", false)));
        org.junit.jupiter.api.Assertions.assertFalse(one.contains("buckets"), one);
        String open = "{\"v\":1,\"type\":\"open_sale\",\"goodsId\":1001,\"stock\":10,\"startAt\":\"" + T
                + "\",\"endAt\":\"" + T.plusSeconds(60) + "\",\"opId\":\"op\"";
        for (String bad : new String[] {",\"buckets\":0}", ",\"buckets\":65}", ",\"buckets\":\"x\"}"}) {
            ParsedCommand parsed = CommandCodec.decode((open + bad).getBytes());
            org.junit.jupiter.api.Assertions.assertInstanceOf(ParsedCommand.Poison.class, parsed, bad);
            org.junit.jupiter.api.Assertions.assertTrue(
                    ((ParsedCommand.Poison) parsed).reason().startsWith("buckets"), bad);
        }
        // a drawn sale may be split too: drawn at its home, which hands the units out in the draw's order
        ParsedCommand drawn =
                CommandCodec.decode((open + ",\"buckets\":2,\"fairness\":\"lottery\",\"windowMs\":1000}").getBytes());
        org.junit.jupiter.api.Assertions.assertInstanceOf(ParsedCommand.Valid.class, drawn);
        OpenSale o = (OpenSale) ((ParsedCommand.Valid) drawn).command();
        org.junit.jupiter.api.Assertions.assertEquals(2, o.buckets());
        org.junit.jupiter.api.Assertions.assertEquals(drawn, CommandCodec.decode(CommandCodec.encode(o)));
    }

    @Test
    void theHandWrittenPurchaseEncodingIsByteForByteJacksons() {
        Random random = new Random(7);
        for (int i = 0; i < 2_000; i++) {
            Instant at =
                    Instant.ofEpochSecond(1_700_000_000L + random.nextInt(100_000_000), random.nextInt(1_000_000_000));
            if (i % 3 == 0) at = at.truncatedTo(ChronoUnit.SECONDS);
            String rid = i % 5 == 0 ? "q\"uoted\\" + i : "r-" + java.util.UUID.randomUUID() + ":" + i;
            Purchase p = new Purchase(
                    rid, 1 + random.nextInt(1_000_000), 1 + random.nextInt(1_000_000), 1 + random.nextInt(100), at);
            Assertions.assertThat(new String(CommandCodec.encode(p), StandardCharsets.UTF_8))
                    .isEqualTo(new String(CommandCodec.encodeTree(p), StandardCharsets.UTF_8));
            if (i % 5 != 0) {
                Assertions.assertThat(CommandCodec.decode(CommandCodec.encode(p)))
                        .isEqualTo(new ParsedCommand.Valid(p));
            }
        }
    }

    @Test
    void theStreamingPurchaseDecoderAgreesWithTheTreeOnEverything() {
        Random random = new Random(9);
        String[] shapes = {
            "{\"v\":1,\"type\":\"purchase\",\"requestId\":\"%s\",\"goodsId\":%d,\"userId\":%d,\"quantity\":%d,\"acceptedAt\":\"%s\"}",
            "{\"type\":\"purchase\",\"acceptedAt\":\"%5$s\",\"quantity\":%4$d,\"userId\":%3$d,\"goodsId\":%2$d,\"requestId\":\"%1$s\"}",
            "{\"v\":2,\"type\":\"purchase\",\"requestId\":\"%s\",\"goodsId\":%d,\"userId\":%d,\"quantity\":%d,\"acceptedAt\":\"%s\"}",
            "{\"v\":1,\"type\":\"purchase\",\"requestId\":\"%s\",\"goodsId\":%d,\"userId\":%d,\"quantity\":%d,\"acceptedAt\":\"%s\",\"extra\":true}",
            "{\"v\":1,\"type\":\"purchase\",\"requestId\":\"%s\",\"goodsId\":\"%d\",\"userId\":%d,\"quantity\":%d,\"acceptedAt\":\"%s\"}",
            "{\"v\":1,\"type\":\"purchase\",\"requestId\":\"%s\",\"goodsId\":%d,\"goodsId\":%d,\"quantity\":%d,\"acceptedAt\":\"%s\"}",
            "{\"v\":1,\"type\":\"purchase\",\"requestId\":\"%s\",\"goodsId\":%d,\"userId\":%d,\"quantity\":%d,\"acceptedAt\":\"%s\"} trailing",
            "{\"v\":1,\"type\":\"purchase\",\"requestId\":\"%s\",\"goodsId\":%d,\"userId\":%d,\"quantity\":%d.0,\"acceptedAt\":\"%s\"}",
            "[\"%s\",%d,%d,%d,\"%s\"]",
        };
        String[] ids = {"r1", "a.b:c-d_e", "", "x".repeat(65), "bad id", "ok-" + "y".repeat(60)};
        long[] numbers = {1, 7, 0, -3, 100, 101, Long.MAX_VALUE};
        String[] instants = {
            "2026-11-29T10:00:00Z",
            "2026-11-29T10:00:00.123Z",
            "2026-02-30T10:00:00Z",
            "yesterday",
            "2026-11-29T10:00:00+01:00"
        };
        for (int i = 0; i < 5_000; i++) {
            String json = String.format(
                    shapes[random.nextInt(shapes.length)],
                    ids[random.nextInt(ids.length)],
                    numbers[random.nextInt(numbers.length)],
                    numbers[random.nextInt(numbers.length)],
                    numbers[random.nextInt(numbers.length)],
                    instants[random.nextInt(instants.length)]);
            byte[] raw = json.getBytes(StandardCharsets.UTF_8);
            Assertions.assertThat(CommandCodec.decode(raw)).as(json).isEqualTo(CommandCodec.decodeTree(raw));
        }
        byte[] plain = CommandCodec.encode(new Purchase("p1", 5, 6, 2, Instant.parse("2026-11-29T10:00:00.5Z")));
        Assertions.assertThat(CommandCodec.plainPurchase(plain))
                .as("the hot path takes what we write")
                .isNotNull();
    }
}
