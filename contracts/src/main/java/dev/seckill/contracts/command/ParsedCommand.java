package dev.seckill.contracts.command;

import java.time.Instant;

/** What a raw command record turned out to be. */
public sealed interface ParsedCommand {
    /** A well-formed command. */
    record Valid(Command command) implements ParsedCommand {}

    /**
     * A purchase with a usable requestId and goodsId whose other fields are out of range: it is answered
     * REJECTED {@code invalid} so its sender learns what happened. Unknown numbers are 0, unknown instant null.
     */
    record InvalidPurchase(String requestId, long goodsId, long userId, int quantity, Instant acceptedAt, String reason)
            implements ParsedCommand {}

    /** A record nobody can answer: it goes to the DLQ with {@code reason}. */
    record Poison(String reason) implements ParsedCommand {}
}
