package dev.seckill.gateway.payment;

import dev.seckill.contracts.Json;
import dev.seckill.contracts.Topics;
import dev.seckill.contracts.TraceHeaders;
import dev.seckill.contracts.command.CommandRules;
import dev.seckill.contracts.payment.Payment;
import dev.seckill.gateway.GatewaySettings;
import dev.seckill.gateway.http.Problem;
import dev.seckill.gateway.http.Replies;
import dev.seckill.gateway.http.Reply;
import dev.seckill.gateway.http.RequestHeaders;
import dev.seckill.gateway.http.RequestRecordSender;
import dev.seckill.gateway.http.Responder;
import dev.seckill.kit.config.Settings;
import io.vertx.core.Handler;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * {@code POST /api/orders/{orderId}/pay}: a payment event on {@code <prefix>payments}, keyed by orderId, 202 once Kafka
 * has it. Only the payment provider may call it, with its own credential ({@code Authorization: Bearer <payment
 * secret>}); a buyer's token is refused, and without a configured credential the endpoint does not exist (404). The
 * body must name the provider's own {@code paymentId} (an id as the contracts define it, {@link CommandRules#REQUEST_ID}):
 * it is what makes a retried report the same payment, so none is ever made up here (400 naming the field).
 */
public final class PaymentRoute implements Handler<RoutingContext> {
    private final Topics topics;
    private final Clock clock;
    private final Responder responder;
    private final RequestRecordSender sender;
    /** SHA-256 of the payment provider's credential; null: the pay endpoint is off. */
    private final byte[] credential;

    public PaymentRoute(
            Settings settings, Topics topics, Clock clock, Responder responder, RequestRecordSender sender) {
        this.topics = topics;
        this.clock = clock;
        this.responder = responder;
        this.sender = sender;
        this.credential = credential(settings);
    }

    /**
     * The payment provider's credential, hashed, or null when none is configured (the pay endpoint is then off). It
     * must be at least 32 characters and not the buyers' JWT secret: a separate credential, so that nothing a buyer
     * holds or could be issued can report a payment.
     */
    public static byte[] credential(Settings settings) {
        String secret = settings.get(GatewaySettings.PAYMENT_SECRET);
        if (secret.isEmpty()) return null;
        if (secret.length() < 32) {
            throw new IllegalStateException(GatewaySettings.PAYMENT_SECRET.env() + " must be at least 32 characters");
        }
        if (secret.equals(settings.get(GatewaySettings.AUTH_SECRET))) {
            throw new IllegalStateException(
                    GatewaySettings.PAYMENT_SECRET.env() + " must differ from " + GatewaySettings.AUTH_SECRET.env());
        }
        return sha256(secret);
    }

    private static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void handle(RoutingContext ctx) {
        long start = System.nanoTime();
        String traceId = RequestHeaders.traceId(ctx);
        ctx.response().putHeader("X-Trace-Id", traceId);
        Reply refused = refusal(ctx);
        if (refused != null) {
            responder.reply(ctx, refused, start);
            return;
        }
        long orderId = Long.parseLong(ctx.pathParam("orderId"));
        String paymentId = paymentId(ctx.body().asString());
        if (paymentId == null) {
            responder.reply(
                    ctx,
                    Replies.invalid(
                            "paymentId is required: the payment provider's own id of the payment, 1-64 characters of"
                                    + " [A-Za-z0-9._:-], in a JSON body (a retry with the same paymentId is the same"
                                    + " payment)",
                            "paymentId"),
                    start);
            return;
        }
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(
                topics.payments(), Long.toString(orderId), Json.write(Payment.of(paymentId, orderId, clock.instant())));
        TraceHeaders.put(record.headers(), traceId);
        sender.send(
                record,
                acked -> responder.reply(
                        ctx,
                        Reply.of(
                                202,
                                new JsonObject()
                                        .put("paymentId", paymentId)
                                        .put("orderId", orderId)
                                        .put("status", "PENDING"),
                                "payment_accepted"),
                        start),
                error -> responder.reply(
                        ctx,
                        Problem.UNKNOWN
                                .reply(
                                        Problem.UNKNOWN
                                                .body("Kafka did not acknowledge the payment in time: send it again"
                                                        + " (a payment is applied once per paymentId)")
                                                .put("retryAfterSeconds", Replies.RETRY_AFTER_SECONDS),
                                        "kafka_unavailable")
                                .withHeader("Retry-After", Long.toString(Replies.RETRY_AFTER_SECONDS)),
                        start));
    }

    /** Who may not pay, and why: the endpoint off, no credential, not the provider's, or no usable orderId. */
    private Reply refusal(RoutingContext ctx) {
        if (credential == null) {
            return Problem.PAYMENTS_OFF.reply(
                    "payments are not accepted on this gateway: they come from the payment provider, and this"
                            + " endpoint is off unless SECKILL_GATEWAY_PAYMENT_SECRET is set",
                    "payments_off");
        }
        String presented = RequestHeaders.bearer(ctx);
        if (presented == null || presented.isEmpty()) {
            return Problem.UNAUTHENTICATED
                    .reply("missing the payment provider's credential", "unauthenticated")
                    .withHeader("WWW-Authenticate", "Bearer realm=\"payments\"");
        }
        // digests of equal length, compared in constant time: the comparison says nothing about the secret's prefix or
        // length
        if (!MessageDigest.isEqual(sha256(presented), credential)) {
            return Problem.FORBIDDEN.reply("only the payment provider may report payments", "forbidden");
        }
        try {
            if (Long.parseLong(ctx.pathParam("orderId")) > 0) return null;
        } catch (NumberFormatException e) {
            // answered below
        }
        return Replies.invalid("orderId must be a positive integer", "orderId");
    }

    /**
     * The paymentId the body names; null when it names none (no body, no field, null) or an unusable one (not a string,
     * blank, not an id): never a made-up one, which would turn a provider's retry into a second payment.
     */
    private static String paymentId(String body) {
        if (body == null || body.isBlank()) return null;
        try {
            Object given = new JsonObject(body).getValue("paymentId");
            return given instanceof String g && CommandRules.validRequestId(g) ? g : null;
        } catch (RuntimeException e) {
            return null;
        }
    }
}
