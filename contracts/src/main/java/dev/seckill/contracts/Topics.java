package dev.seckill.contracts;

import dev.seckill.contracts.outcome.OutcomeKind;
import java.util.List;

/** Every topic name of the pipeline, derived from one prefix (default {@code seckill.}). */
public record Topics(String prefix) {
    public static final String DEFAULT_PREFIX = "seckill.";

    public String commands() {
        return prefix + "commands";
    }

    public String success() {
        return prefix + "outcome.success";
    }

    public String soldOut() {
        return prefix + "outcome.sold-out";
    }

    public String duplicate() {
        return prefix + "outcome.duplicate";
    }

    public String rejected() {
        return prefix + "outcome.rejected";
    }

    public String ledger() {
        return prefix + "ledger";
    }

    public String dlq() {
        return prefix + "dlq";
    }

    public String payments() {
        return prefix + "payments";
    }

    public String outcome(OutcomeKind kind) {
        return switch (kind) {
            case SUCCESS -> success();
            case SOLD_OUT -> soldOut();
            case DUPLICATE -> duplicate();
            case REJECTED -> rejected();
        };
    }

    public List<String> outcomes() {
        return List.of(success(), soldOut(), duplicate(), rejected());
    }

    public List<String> all() {
        return List.of(commands(), success(), soldOut(), duplicate(), rejected(), ledger(), dlq(), payments());
    }
}
