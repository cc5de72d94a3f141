package dev.seckill.contracts.schema;

import static dev.seckill.contracts.schema.ContractSchemas.violations;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Error;
import dev.seckill.contracts.Json;
import dev.seckill.contracts.command.CloseSale;
import dev.seckill.contracts.command.Command;
import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.OpenSale;
import dev.seckill.contracts.command.ParsedCommand;
import dev.seckill.contracts.command.Pay;
import dev.seckill.contracts.command.Purchase;
import dev.seckill.contracts.command.Release;
import dev.seckill.contracts.command.Restore;
import dev.seckill.contracts.fair.Draw;
import dev.seckill.contracts.fair.DrawFacts;
import dev.seckill.contracts.fair.Fairness;
import dev.seckill.contracts.ledger.BucketOf;
import dev.seckill.contracts.ledger.LedgerEntry;
import dev.seckill.contracts.ledger.LedgerEntryJson;
import dev.seckill.contracts.ledger.LedgerType;
import dev.seckill.contracts.outcome.Outcome;
import dev.seckill.contracts.outcome.OutcomeJson;
import dev.seckill.contracts.outcome.OutcomeKind;
import dev.seckill.contracts.payment.Payment;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The JSON Schemas of the event contract (contracts/src/main/resources/dev/seckill/contracts/schema, docs/contracts.md)
 * against the code: every event the codecs and serializers of this project write conforms, and what the code refuses
 * the schemas refuse too. A field added, renamed or retyped in a record without its schema fails here.
 */
@Tag("fast")
class EventSchemaTest {
    static final String[] FILES = {
        "common.json",
        "command.json",
        "purchase.json",
        "open_sale.json",
        "release.json",
        "close_sale.json",
        "restore.json",
        "pay.json",
        "outcome.json",
        "ledger-entry.json",
        "ledger-entry.v1.json",
        "payment.json",
        "dlq-headers.json"
    };
    /** The ledger entries of one-bucket sales; {@code ledger-entry.json} is v2, a bucketed goods'. */
    static final String LEDGER_V1 = "ledger-entry.v1.json";

    static final String ID_64 = "Az09._:-".repeat(8);
    static final Instant[] INSTANTS = {
        Instant.parse("2026-11-29T10:00:00Z"),
        Instant.parse("2026-11-29T10:00:00.120Z"),
        Instant.parse("2026-11-29T10:00:00.000120Z"),
        Instant.parse("2026-11-29T23:59:59.999999999Z")
    };

    @Test
    void everySchemaFileIsAValidDraft202012SchemaAndResolvesItsReferences() throws Exception {
        for (String file : FILES) {
            byte[] raw;
            try (InputStream in = getClass().getResourceAsStream("/dev/seckill/contracts/schema/" + file)) {
                assertThat(in).as(file + " ships in the contracts jar").isNotNull();
                raw = in.readAllBytes();
            }
            var node = Json.MAPPER.readTree(raw);
            assertThat(node.path("$schema").asText())
                    .as(file)
                    .isEqualTo("https://json-schema.org/draft/2020-12/schema");
            assertThat(node.path("$id").asText()).as(file).isEqualTo(ContractSchemas.ID_PREFIX + file);
            assertThat(ContractSchemas.metaSchemaViolations(new String(raw, StandardCharsets.UTF_8)))
                    .as(file)
                    .isEmpty();
            assertThat(ContractSchemas.schema(file)).as(file).isNotNull();
        }
        assertThat(ContractSchemas.metaSchemaViolations("{\"type\":5,\"required\":\"v\"}"))
                .as("the meta-schema check bites")
                .isNotEmpty();
    }

    // ---- what the code writes conforms ----

    static List<Command> everyCommandShape() {
        List<Command> all = new ArrayList<>();
        for (Instant at : INSTANTS) {
            all.add(new Purchase("r-42", 1001, 7, 1, at));
            all.add(new Purchase(ID_64, Long.MAX_VALUE, Long.MAX_VALUE, 100, at));
        }
        Instant start = INSTANTS[1];
        all.add(new OpenSale(1001, 1000, start, start.plusSeconds(3600), 1, "open-1001", false));
        all.add(new OpenSale(1001, 0, start, start.plusNanos(1), 100, ID_64, true));
        for (String reason : Release.REASONS) {
            all.add(new Release(1001, 7, 1, 55L, "r-42", reason, "release-order-55"));
        }
        all.add(new Release(1001, 7, 1, null, "r-42", "cancelled", "release-r-42"));
        all.add(new Release(1001, 7, 2, 56L, null, "payment_timeout", "release-order-56"));
        all.add(new Release(1001, 7, 0, null, null, "repair", "repair-1"));
        all.add(new CloseSale(1001, "close-1001"));
        all.add(new Restore(1001, "restore:1001:2026-11-29T10.00"));
        all.add(new Pay(1001, 7, "r-42", 55, "payment-9", Pay.opIdOf(55)));
        all.add(new Pay(Long.MAX_VALUE, Long.MAX_VALUE, ID_64, Long.MAX_VALUE, ID_64, ID_64));
        return all;
    }

    @Test
    void everyCommandTheCodecWritesConformsToItsTypesSchemaAndToTheCommandSchema() {
        for (Command c : everyCommandShape()) {
            byte[] json = CommandCodec.encode(c);
            String type = Json.read(json, JsonNode.class).path("type").asText();
            assertThat(violations(type + ".json", json))
                    .as(new String(json, StandardCharsets.UTF_8))
                    .isEmpty();
            assertThat(violations("command.json", json))
                    .as(new String(json, StandardCharsets.UTF_8))
                    .isEmpty();
            assertThat(CommandCodec.decode(json))
                    .as("and the decoder takes it back")
                    .isEqualTo(new ParsedCommand.Valid(c));
        }
        assertThat(everyCommandShape().stream()
                        .map(c -> c.getClass().getSimpleName())
                        .distinct())
                .containsExactlyInAnyOrder("Purchase", "OpenSale", "Release", "CloseSale", "Restore", "Pay");
    }

    @Test
    void everyOutcomeKindAndReasonTheStreamWritesConformsToTheOutcomeSchema() {
        List<Outcome> all = new ArrayList<>();
        Instant decided = INSTANTS[3];
        for (Instant at : INSTANTS) {
            all.add(Outcome.of("r-1", 1001, 7, 1, OutcomeKind.SUCCESS, null, 999, at, decided, 0, 0));
            all.add(Outcome.of(
                    ID_64,
                    Long.MAX_VALUE,
                    Long.MAX_VALUE,
                    100,
                    OutcomeKind.SUCCESS,
                    null,
                    0,
                    at,
                    decided,
                    11,
                    Long.MAX_VALUE));
        }
        all.add(Outcome.of("r-2", 1001, 8, 1, OutcomeKind.SOLD_OUT, null, 0, INSTANTS[1], decided, 3, 17));
        all.add(Outcome.of("r-3", 1001, 7, 1, OutcomeKind.DUPLICATE, null, 12, INSTANTS[1], decided, 3, 18));
        all.add(Outcome.of("r-4", 1001, 7, 1, OutcomeKind.DUPLICATE, null, 12, INSTANTS[1], decided, 3, 19)
                .withHeldRequestId("r-3"));
        all.add(Outcome.of("r-5", 1001, 7, 1, OutcomeKind.DUPLICATE, null, 12, INSTANTS[1], decided, 3, 20)
                .withHeldRequestId(ID_64));
        for (String reason : List.of("not_started", "ended", "no_sale", "over_limit", "invalid")) {
            all.add(Outcome.of("r-" + reason, 1001, 9, 2, OutcomeKind.REJECTED, reason, 5, INSTANTS[2], decided, 1, 2));
        }
        // REJECTED invalid as the stream writes it for a purchase without usable userId, quantity and acceptedAt
        all.add(Outcome.of("r-bad", 1001, 0, 0, OutcomeKind.REJECTED, "invalid", 0, null, decided, 1, 3));
        all.add(Outcome.of("r-big", 1001, 9, 101, OutcomeKind.REJECTED, "invalid", 0, INSTANTS[0], decided, 1, 4));
        for (Outcome o : all) {
            for (byte[] json : List.of(OutcomeJson.encode(o), Json.write(o))) {
                assertThat(violations("outcome.json", json))
                        .as(new String(json, StandardCharsets.UTF_8))
                        .isEmpty();
            }
        }
    }

    static final String CHAIN = "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971";
    static final byte[] DIGEST = Draw.sha256(new byte[0]);
    static final byte[] SIGNATURE = new byte[48];
    static final byte[] SEED = Draw.seed(1001, DIGEST, Draw.sha256(SIGNATURE));

    static DrawFacts committed(Instant at) {
        return DrawFacts.committed(Fairness.LOTTERY, 2_000, at.plusSeconds(2), at.plusSeconds(3), CHAIN, 4_000_000);
    }

    @Test
    void aDrawnEntryWithoutItsSeedOrADrawWithABadChainIsRefusedByTheSchema() {
        Instant at = INSTANTS[2];
        LedgerEntry noSeed = LedgerEntry.of("drawn:1001:0", 1001, LedgerType.DRAWN, 0, null, null, null, 5, at)
                .withDraw(committed(at));
        assertThat(violations(LEDGER_V1, Json.write(noSeed))).isNotEmpty();
        LedgerEntry noDraw = LedgerEntry.of("drawn:1001:0", 1001, LedgerType.DRAWN, 0, null, null, null, 5, at);
        assertThat(violations(LEDGER_V1, Json.write(noDraw))).isNotEmpty();
        LedgerEntry badChain = LedgerEntry.of("open-x", 1001, LedgerType.OPENED, 5, null, null, null, 5, at)
                .withDraw(DrawFacts.committed(
                        Fairness.LOTTERY, 2_000, at.plusSeconds(2), at.plusSeconds(3), "not-a-hash", 4_000_000));
        assertThat(violations(LEDGER_V1, Json.write(badChain))).isNotEmpty();
    }

    @Test
    void everyLedgerEntryTypeTheStreamWritesConformsToTheLedgerSchema() {
        Instant at = INSTANTS[2];
        Instant expire = INSTANTS[1].plusSeconds(86_400);
        List<LedgerEntry> all = List.of(
                LedgerEntry.of("open-1001", 1001, LedgerType.OPENED, 1000, null, null, null, 1000, at)
                        .withKeysExpireAt(expire),
                LedgerEntry.of("open-1001-again", 1001, LedgerType.OPENED, -400, null, null, null, 600, at)
                        .withKeysExpireAt(expire),
                LedgerEntry.of("open-before-keysExpireAt", 1001, LedgerType.OPENED, 10, null, null, null, 10, at),
                LedgerEntry.of(
                        LedgerEntry.deductOpId(1001, ID_64), 1001, LedgerType.DEDUCTED, 100, 7L, ID_64, null, 0, at),
                LedgerEntry.of(
                        LedgerEntry.deductOpId(1001, "r-1"), 1001, LedgerType.DEDUCTED, 1, 7L, "r-1", null, 999, at),
                LedgerEntry.of("release-order-55", 1001, LedgerType.RELEASED, 1, 7L, "r-1", 55L, 1000, at),
                LedgerEntry.of("repair-1", 1001, LedgerType.RELEASED, 3, 7L, null, null, 3, at),
                LedgerEntry.of("close-1001", 1001, LedgerType.CLOSED, 0, null, null, null, 3, at),
                LedgerEntry.of("restore-1001", 1001, LedgerType.RESTORED, 0, null, null, null, 3, at)
                        .withKeysExpireAt(expire),
                LedgerEntry.of("pay-order-55", 1001, LedgerType.PAID, 0, 7L, "r-1", 55L, 3, at),
                LedgerEntry.of("pay-order-56", 1001, LedgerType.PAYMENT_REFUSED, 0, 8L, "r-2", 56L, 4, at),
                LedgerEntry.of("open-lottery", 1001, LedgerType.OPENED, 5, null, null, null, 5, at)
                        .withKeysExpireAt(expire)
                        .withCommandOffset(0)
                        .withDraw(committed(at)),
                LedgerEntry.of(LedgerEntry.drawnOpId(1001, 0), 1001, LedgerType.DRAWN, 0, null, null, null, 5, at)
                        .withDraw(committed(at).revealed(DIGEST, 40, SIGNATURE, SEED, 35, 31)));
        assertThat(all.stream().map(LedgerEntry::type).distinct())
                .containsExactlyInAnyOrder(Arrays.stream(LedgerType.values())
                        .filter(t -> t != LedgerType.TRANSFERRED_OUT && t != LedgerType.TRANSFERRED_IN)
                        .toArray(LedgerType[]::new));
        for (LedgerEntry e : all) {
            byte[] json = Json.write(e);
            assertThat(violations(LEDGER_V1, json))
                    .as(new String(json, StandardCharsets.UTF_8))
                    .isEmpty();
        }
    }

    @Test
    void aBucketedGoodsEntriesAreV2_andConformToTheV2Schema_whichRefusesV1Entries_andTheV1SchemaRefusesThem() {
        Instant at = INSTANTS[1];
        BucketOf b1 = BucketOf.of(1, 4, 7);
        String borrow = "borrow:1001:2:7";
        List<LedgerEntry> all = List.of(
                LedgerEntry.of(BucketOf.shareOpId(ID_64, 1), 1001, LedgerType.OPENED, 250, null, null, null, 250, at)
                        .withKeysExpireAt(at.plusSeconds(86_400))
                        .withCommandOffset(0)
                        .inBucket(b1),
                LedgerEntry.of(
                                LedgerEntry.deductOpId(1001, "r-1"),
                                1001,
                                LedgerType.DEDUCTED,
                                1,
                                7L,
                                "r-1",
                                null,
                                249,
                                at)
                        .withPurchase(12, at, 0)
                        .inBucket(b1),
                LedgerEntry.of(
                                BucketOf.transferOpId(borrow, LedgerType.TRANSFERRED_OUT),
                                1001,
                                LedgerType.TRANSFERRED_OUT,
                                124,
                                null,
                                null,
                                null,
                                125,
                                at)
                        .inBucket(b1.withPeer(2)),
                LedgerEntry.of(
                                BucketOf.transferOpId(borrow, LedgerType.TRANSFERRED_IN),
                                1001,
                                LedgerType.TRANSFERRED_IN,
                                124,
                                null,
                                null,
                                null,
                                124,
                                at)
                        .inBucket(BucketOf.of(2, 4, 8).withPeer(1)));
        for (LedgerEntry e : all) {
            byte[] json = LedgerEntryJson.encode(e);
            assertThat(e.v()).isEqualTo(LedgerEntry.V2);
            assertThat(violations("ledger-entry.json", json))
                    .as(new String(json, StandardCharsets.UTF_8))
                    .isEmpty();
            assertThat(violations(LEDGER_V1, json))
                    .as("a v1 reader's contract has no buckets")
                    .isNotEmpty();
        }
        String out = new String(LedgerEntryJson.encode(all.get(2)), StandardCharsets.UTF_8);
        assertThat(violations("ledger-entry.json", out.replace(",\"peer\":2", "")))
                .as("a transfer names its peer bucket")
                .isNotEmpty();
        assertThat(violations("ledger-entry.json", out.replace("\"quantity\":124", "\"quantity\":0")))
                .as("a transfer moves at least one unit")
                .isNotEmpty();
        byte[] oneBucket = LedgerEntryJson.encode(
                LedgerEntry.of("close-1001", 1001, LedgerType.CLOSED, 0, null, null, null, 3, at));
        assertThat(violations("ledger-entry.json", oneBucket))
                .as("a one-bucket sale's entry is v1")
                .isNotEmpty();
    }

    @Test
    void aPaymentAsTheGatewayWritesItConformsToThePaymentSchema() {
        for (Instant at : INSTANTS) {
            byte[] json = Json.write(Payment.of(UUID.randomUUID().toString(), 55, at));
            assertThat(violations("payment.json", json))
                    .as(new String(json, StandardCharsets.UTF_8))
                    .isEmpty();
        }
        assertThat(violations("payment.json", Json.write(Payment.of(ID_64, Long.MAX_VALUE, INSTANTS[0]))))
                .isEmpty();
    }

    // ---- what the code refuses, the schemas refuse ----

    static final String PURCHASE =
            "{\"v\":1,\"type\":\"purchase\",\"requestId\":\"r-42\",\"goodsId\":1001,\"userId\":7,"
                    + "\"quantity\":1,\"acceptedAt\":\"2026-11-29T10:00:00.120Z\"}";

    static String purchaseWith(String field, String json) {
        return PURCHASE.replaceFirst(
                "\"" + field + "\":(\"[^\"]*\"|[0-9]+)",
                Matcher.quoteReplacement(json.isEmpty() ? "\"x-removed\":0" : "\"" + field + "\":" + json));
    }

    @Test
    void theBasePurchaseIsValid_soEveryRejectionBelowIsDueToItsOneChange() {
        assertThat(violations("command.json", PURCHASE)).isEmpty();
        assertThat(CommandCodec.decode(PURCHASE.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(ParsedCommand.Valid.class);
    }

    @Test
    void aPurchaseTheStreamSendsToTheDlqIsRejectedByTheSchema() {
        Map<String, String> poison = Map.of(
                "missing requestId", purchaseWith("requestId", ""),
                "requestId with a space", purchaseWith("requestId", "\"r 42\""),
                "requestId of 65 characters", purchaseWith("requestId", "\"" + ID_64 + "x\""),
                "requestId with a trailing newline", purchaseWith("requestId", "\"r-42\\n\""),
                "goodsId 0", purchaseWith("goodsId", "0"),
                "missing goodsId", purchaseWith("goodsId", ""),
                "unknown type", PURCHASE.replace("\"purchase\"", "\"purchas\""),
                "missing type", PURCHASE.replace("\"type\":\"purchase\",", ""),
                "v 2", PURCHASE.replace("\"v\":1", "\"v\":2"));
        poison.forEach((what, json) -> {
            assertThat(violations("command.json", json)).as(what + ": " + json).isNotEmpty();
            assertThat(CommandCodec.decode(json.getBytes(StandardCharsets.UTF_8)))
                    .as(what)
                    .isInstanceOf(ParsedCommand.Poison.class);
        });
    }

    @Test
    void aPurchaseTheStreamAnswersRejectedInvalidIsRejectedByTheSchema() {
        Map<String, String> invalid = Map.of(
                "quantity 0", purchaseWith("quantity", "0"),
                "quantity 101", purchaseWith("quantity", "101"),
                "quantity 1.5", purchaseWith("quantity", "1.5"),
                "missing userId", purchaseWith("userId", ""),
                "userId -1", purchaseWith("userId", "-1"),
                "missing acceptedAt", purchaseWith("acceptedAt", ""),
                "acceptedAt not an instant", purchaseWith("acceptedAt", "\"yesterday\""),
                "acceptedAt on a day that does not exist", purchaseWith("acceptedAt", "\"2026-02-30T10:00:00Z\""));
        invalid.forEach((what, json) -> {
            assertThat(violations("command.json", json)).as(what + ": " + json).isNotEmpty();
            assertThat(violations("purchase.json", json)).as(what + ": " + json).isNotEmpty();
            assertThat(CommandCodec.decode(json.getBytes(StandardCharsets.UTF_8)))
                    .as(what)
                    .isInstanceOf(ParsedCommand.InvalidPurchase.class);
        });
    }

    @Test
    void otherCommandsTheDecoderRefusesAreRejectedByTheSchema() {
        String release = new String(
                CommandCodec.encode(new Release(1001, 7, 1, 55L, "r-42", "cancelled", "rel-1")),
                StandardCharsets.UTF_8);
        String open = new String(
                CommandCodec.encode(new OpenSale(1001, 10, INSTANTS[0], INSTANTS[1], 1, "open-1", false)),
                StandardCharsets.UTF_8);
        assertThat(violations("command.json", release)).isEmpty();
        assertThat(violations("command.json", open)).isEmpty();
        String pay = new String(
                CommandCodec.encode(new Pay(1001, 7, "r-42", 55, "payment-9", Pay.opIdOf(55))), StandardCharsets.UTF_8);
        assertThat(violations("command.json", pay)).isEmpty();
        Map<String, String> refused = Map.ofEntries(
                Map.entry("release reason not in the enum", release.replace("\"cancelled\"", "\"changed_my_mind\"")),
                Map.entry(
                        "release without opId or orderId",
                        release.replace("\"orderId\":55,", "").replace(",\"opId\":\"rel-1\"", "")),
                Map.entry("release without userId", release.replace("\"userId\":7,", "")),
                Map.entry("open_sale without stock", open.replace("\"stock\":10,", "")),
                Map.entry("open_sale with negative stock", open.replace("\"stock\":10", "\"stock\":-1")),
                Map.entry("open_sale perUserLimit 0", open.replace("\"perUserLimit\":1", "\"perUserLimit\":0")),
                Map.entry("close_sale without opId", "{\"v\":1,\"type\":\"close_sale\",\"goodsId\":1001}"),
                Map.entry(
                        "restore with an opId of a bad character",
                        "{\"v\":1,\"type\":\"restore\",\"goodsId\":1001,\"opId\":\"r/1\"}"),
                Map.entry("pay without orderId", pay.replace("\"orderId\":55,", "")),
                Map.entry("pay without paymentId", pay.replace("\"paymentId\":\"payment-9\",", "")),
                Map.entry("pay of a bad requestId", pay.replace("\"r-42\"", "\"r 42\"")));
        refused.forEach((what, json) -> {
            assertThat(violations("command.json", json)).as(what + ": " + json).isNotEmpty();
            assertThat(CommandCodec.decode(json.getBytes(StandardCharsets.UTF_8)))
                    .as(what)
                    .isInstanceOf(ParsedCommand.Poison.class);
        });
    }

    @Test
    void outcomesLedgerEntriesAndPaymentsOutsideTheContractAreRejected() {
        Instant at = INSTANTS[1];
        String success = new String(
                OutcomeJson.encode(Outcome.of("r-1", 1001, 7, 1, OutcomeKind.SUCCESS, null, 9, at, at, 0, 5)),
                StandardCharsets.UTF_8);
        String rejected = new String(
                OutcomeJson.encode(Outcome.of("r-1", 1001, 7, 1, OutcomeKind.REJECTED, "ended", 9, at, at, 0, 5)),
                StandardCharsets.UTF_8);
        String deducted = new String(
                Json.write(LedgerEntry.of("deduct:r-1", 1001, LedgerType.DEDUCTED, 1, 7L, "r-1", null, 9, at)),
                StandardCharsets.UTF_8);
        String payment = new String(Json.write(Payment.of("pay-1", 55, at)), StandardCharsets.UTF_8);
        assertThat(List.of(
                        violations("outcome.json", success),
                        violations("outcome.json", rejected),
                        violations(LEDGER_V1, deducted),
                        violations("payment.json", payment)))
                .allMatch(List::isEmpty);

        Map<String, List<Error>> refused = new LinkedHashMap<>();
        refused.put("outcome kind not in the enum", violations("outcome.json", success.replace("SUCCESS", "MAYBE")));
        refused.put(
                "SUCCESS with a reason",
                violations(
                        "outcome.json",
                        success.replace("\"outcome\":\"SUCCESS\"", "\"outcome\":\"SUCCESS\",\"reason\":\"ended\"")));
        refused.put(
                "SUCCESS with a heldRequestId",
                violations("outcome.json", success.replace("\"offset\":5", "\"offset\":5,\"heldRequestId\":\"r-0\"")));
        String duplicate = new String(
                OutcomeJson.encode(Outcome.of("r-2", 1001, 7, 1, OutcomeKind.DUPLICATE, null, 9, at, at, 0, 6)
                        .withHeldRequestId("r-1")),
                StandardCharsets.UTF_8);
        assertThat(violations("outcome.json", duplicate)).isEmpty();
        refused.put(
                "DUPLICATE with a heldRequestId that is not an id",
                violations("outcome.json", duplicate.replace("\"heldRequestId\":\"r-1\"", "\"heldRequestId\":\"\"")));
        refused.put(
                "REJECTED without a reason", violations("outcome.json", rejected.replace(",\"reason\":\"ended\"", "")));
        refused.put(
                "REJECTED reason not in the enum",
                violations("outcome.json", rejected.replace("\"ended\"", "\"sold_out\"")));
        refused.put(
                "REJECTED ended without acceptedAt",
                violations("outcome.json", rejected.replaceFirst(",\"acceptedAt\":\"[^\"]*\"", "")));
        refused.put(
                "SUCCESS with userId 0", violations("outcome.json", success.replace("\"userId\":7", "\"userId\":0")));
        refused.put(
                "outcome without requestId", violations("outcome.json", success.replace("\"requestId\":\"r-1\",", "")));
        refused.put(
                "outcome with a negative offset",
                violations("outcome.json", success.replace("\"offset\":5", "\"offset\":-5")));
        refused.put("ledger type not in the enum", violations(LEDGER_V1, deducted.replace("DEDUCTED", "SPENT")));
        refused.put("DEDUCTED without the deduct: opId", violations(LEDGER_V1, deducted.replace("deduct:r-1", "r-1")));
        refused.put("DEDUCTED without userId", violations(LEDGER_V1, deducted.replace("\"userId\":7,", "")));
        refused.put("DEDUCTED of 0 units", violations(LEDGER_V1, deducted.replace("\"quantity\":1", "\"quantity\":0")));
        refused.put("ledger entry without at", violations(LEDGER_V1, deducted.replaceFirst(",\"at\":\"[^\"]*\"", "")));
        refused.put(
                "payment without paidAt",
                violations("payment.json", payment.replaceFirst(",\"paidAt\":\"[^\"]*\"", "")));
        refused.put(
                "payment with orderId as a string",
                violations("payment.json", payment.replace("\"orderId\":55", "\"orderId\":\"55\"")));
        refused.put("payment of v 2", violations("payment.json", payment.replace("\"v\":1", "\"v\":2")));
        refused.forEach((what, errors) -> assertThat(errors).as(what).isNotEmpty());
    }

    @Test
    void unknownFieldsAreAllowed_soAnAdditiveOptionalFieldKeepsV1() {
        String extended = PURCHASE.replace("\"v\":1,", "\"v\":1,\"channel\":\"app\",");
        assertThat(violations("command.json", extended)).isEmpty();
        assertThat(CommandCodec.decode(extended.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(ParsedCommand.Valid.class);
        String outcome = new String(
                        OutcomeJson.encode(Outcome.of(
                                "r-1", 1001, 7, 1, OutcomeKind.SUCCESS, null, 9, INSTANTS[0], INSTANTS[0], 0, 5)),
                        StandardCharsets.UTF_8)
                .replace("}", ",\"region\":\"eu\"}");
        assertThat(violations("outcome.json", outcome)).isEmpty();
        assertThat(Json.read(outcome.getBytes(StandardCharsets.UTF_8), Outcome.class)
                        .requestId())
                .isEqualTo("r-1");
    }

    @Test
    void dlqHeadersAsTheConsumersWriteThemConform_andAMissingOneIsRejected() {
        String headers = "{\"traceId\":\"0af7651916cd43dd8448eb211c80319c\",\"error\":\"unknown type: x\","
                + "\"source-topic\":\"seckill.commands\",\"source-partition\":\"3\",\"source-offset\":\"42\"}";
        assertThat(violations("dlq-headers.json", headers)).isEmpty();
        assertThat(violations("dlq-headers.json", headers.replace(",\"source-offset\":\"42\"", "")))
                .isNotEmpty();
        assertThat(violations("dlq-headers.json", headers.replace("\"3\"", "\"three\"")))
                .isNotEmpty();
    }
}
