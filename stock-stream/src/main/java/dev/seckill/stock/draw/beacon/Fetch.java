package dev.seckill.stock.draw.beacon;

import java.util.Objects;

/** What a {@link BeaconSource} can say of a round at once: here it is, not yet, or not to be had now (and why). */
public sealed interface Fetch permits Fetch.Ready, Fetch.NotYet, Fetch.Unreachable {

    /** The round, its signature verified under the source's chain. */
    record Ready(BeaconRound round) implements Fetch {
        public Ready {
            Objects.requireNonNull(round, "round");
        }
    }

    /**
     * The round is not to be had yet: its time, {@code dueAtMs} (epoch ms), has not come, or came a moment ago and the
     * round is being fetched. Asking again is cheap; asking before {@code dueAtMs} cannot succeed.
     */
    record NotYet(long dueAtMs) implements Fetch {}

    /**
     * The round's time is past and no relay gave a round that verifies; {@code reason} says what each said, e.g.
     * {@code "relay http://a unreachable: connect timed out; relay http://b: signature does not verify"}. The source
     * keeps trying (with a backoff) while it is asked.
     */
    record Unreachable(String reason) implements Fetch {
        public Unreachable {
            Objects.requireNonNull(reason, "reason");
        }
    }
}
