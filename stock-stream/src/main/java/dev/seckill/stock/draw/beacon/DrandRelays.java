package dev.seckill.stock.draw.beacon;

import java.net.URI;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link BeaconSource} over drand's HTTP relays: a round is fetched with {@code GET <relay>/<chain hash>/public/
 * <round>} from each relay in turn (the one that last answered first) until one gives a round whose signature
 * verifies; verified rounds are kept (a bounded number). It holds the chain, the relays, its settings, the verified
 * rounds, each wanted round's attempts, and a count of failed attempts with the last one's reason, for a metric.
 * Nothing is fetched before a round's time; a failed attempt is made again after a backoff when the round is asked
 * for again (a round nobody asks for any more is not retried).
 */
public final class DrandRelays implements BeaconSource {
    private static final Logger LOG = LoggerFactory.getLogger(DrandRelays.class);

    /** drand's public relays of the League of Entropy's chains, quicknet among them. */
    public static final List<URI> QUICKNET_RELAYS = List.of(
            URI.create("https://api.drand.sh"),
            URI.create("https://api2.drand.sh"),
            URI.create("https://api3.drand.sh"),
            URI.create("https://drand.cloudflare.com"));

    /**
     * How the relays are asked: each relay's time ({@code requestTimeout}); how long a round may be missing after its
     * time or its first ask (the later) before it is unreachable ({@code publishGrace}); the backoff between attempts
     * ({@code firstRetry} doubling up to {@code maxRetry}); how many verified rounds are kept ({@code cacheSize}).
     */
    public record Settings(
            Duration requestTimeout, Duration publishGrace, Duration firstRetry, Duration maxRetry, int cacheSize) {
        public static final Settings DEFAULTS = new Settings(
                Duration.ofSeconds(3), Duration.ofSeconds(2), Duration.ofMillis(200), Duration.ofSeconds(5), 1024);

        public Settings {
            Objects.requireNonNull(requestTimeout, "requestTimeout");
            Objects.requireNonNull(publishGrace, "publishGrace");
            Objects.requireNonNull(firstRetry, "firstRetry");
            Objects.requireNonNull(maxRetry, "maxRetry");
            if (requestTimeout.isNegative() || requestTimeout.isZero()) {
                throw new IllegalArgumentException("a request timeout above 0, not " + requestTimeout);
            }
            if (publishGrace.isNegative()) throw new IllegalArgumentException("a negative grace: " + publishGrace);
            if (firstRetry.isNegative() || firstRetry.isZero() || maxRetry.compareTo(firstRetry) < 0) {
                throw new IllegalArgumentException(
                        "retries need 0 < firstRetry <= maxRetry, not " + firstRetry + " and " + maxRetry);
            }
            if (cacheSize < 1) throw new IllegalArgumentException("a cache of at least one round, not " + cacheSize);
        }
    }

    /** A wanted round's attempts so far. Guarded by the {@link DrandRelays} that holds it. */
    private static final class Attempts {
        final long firstAskedMs;
        boolean inFlight;
        int failed;
        long nextAtMs;
        String reason;

        Attempts(long firstAskedMs) {
            this.firstAskedMs = firstAskedMs;
        }
    }

    private final BeaconChain chain;
    private final List<URI> relays;
    private final Settings settings;
    private final Clock clock;
    private final ExecutorService executor;
    private final RelayFetcher fetcher;
    private final VerifiedRounds verified;
    private final Map<Long, Attempts> attempts; // guarded by this
    private final AtomicLong failures = new AtomicLong();
    private final AtomicInteger preferred = new AtomicInteger();
    private final String noAnswerYet;
    private volatile String lastFailure;
    private volatile boolean closed;

    /** {@code chain}'s rounds from {@code relays}, with the {@link Settings#DEFAULTS}. */
    public DrandRelays(BeaconChain chain, List<URI> relays) {
        this(chain, relays, Settings.DEFAULTS, Clock.systemUTC());
    }

    public DrandRelays(BeaconChain chain, List<URI> relays, Settings settings, Clock clock) {
        this.chain = Objects.requireNonNull(chain, "chain");
        this.relays = List.copyOf(relays);
        if (this.relays.isEmpty()) throw new IllegalArgumentException("no relay to fetch " + chain.hash() + " from");
        for (URI relay : this.relays) {
            if (!relay.isAbsolute() || !("http".equals(relay.getScheme()) || "https".equals(relay.getScheme()))) {
                throw new IllegalArgumentException("a relay is an http(s) URL, not \"" + relay + "\"");
            }
        }
        this.settings = Objects.requireNonNull(settings, "settings");
        this.clock = Objects.requireNonNull(clock, "clock");
        AtomicInteger threads = new AtomicInteger();
        this.executor = Executors.newCachedThreadPool(task -> {
            Thread thread = new Thread(task, "beacon-relays-" + threads.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        HttpClient http = HttpClient.newBuilder()
                .executor(executor)
                .connectTimeout(settings.requestTimeout())
                .followRedirects(HttpClient.Redirect.NORMAL)
                .build();
        this.fetcher = new RelayFetcher(chain, this.relays, http, settings.requestTimeout());
        this.verified = new VerifiedRounds(settings.cacheSize());
        this.noAnswerYet = "no answer yet from " + (this.relays.size() == 1 ? "relay " : "relays ")
                + String.join(", ", this.relays.stream().map(URI::toString).toList());
        int bound = settings.cacheSize();
        this.attempts = new LinkedHashMap<>() {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Long, Attempts> eldest) {
                return size() > bound;
            }
        };
    }

    @Override
    public BeaconChain chain() {
        return chain;
    }

    /** The relays' base URLs, in the order they are tried. */
    public List<URI> relays() {
        return relays;
    }

    @Override
    public Fetch round(long round) {
        if (round < 1) throw new IllegalArgumentException("rounds start at 1, not " + round);
        BeaconRound known = verified.get(round);
        if (known != null) return new Fetch.Ready(known);
        long due = chain.timeOfMs(round);
        long now = clock.millis();
        if (now < due) return new Fetch.NotYet(due);
        Fetch answer;
        boolean start;
        synchronized (this) {
            known = verified.get(round); // an attempt may have ended since the look above
            if (known != null) return new Fetch.Ready(known);
            if (closed) return new Fetch.Unreachable("the beacon source is closed");
            Attempts wanted = attempts.computeIfAbsent(round, r -> new Attempts(now));
            start = !wanted.inFlight && now >= wanted.nextAtMs;
            if (start) wanted.inFlight = true;
            if (inGrace(wanted, due, now)) {
                answer = new Fetch.NotYet(due);
            } else {
                answer = new Fetch.Unreachable(wanted.reason != null ? wanted.reason : noAnswerYet);
            }
        }
        if (start) launch(round);
        return answer;
    }

    @Override
    public void record(BeaconRound round) {
        if (round.verifies(chain)) {
            verified.put(round);
        } else {
            LOG.warn("beacon round {} of chain {} does not verify: not kept", round.round(), chain.hash());
        }
    }

    /** How many attempts at a round failed (every relay asked, none gave a round that verifies) since the start. */
    public long failures() {
        return failures.get();
    }

    /** The last failed attempt's reason, naming its round and what each relay said; empty before any failed. */
    public Optional<String> lastFailure() {
        return Optional.ofNullable(lastFailure);
    }

    private void launch(long round) {
        try {
            fetcher.fetch(round, preferred.get()).whenComplete((outcome, error) -> settle(round, outcome, error));
        } catch (RuntimeException e) {
            settle(round, null, e);
        }
    }

    private void settle(long round, RelayFetcher.Outcome outcome, Throwable error) {
        if (outcome != null && outcome.round() != null) {
            verified.put(outcome.round()); // verified by the fetcher
            preferred.set(outcome.relay());
            synchronized (this) {
                attempts.remove(round);
            }
            return;
        }
        String reason = outcome != null ? outcome.reason() : "fetch failed: " + RelayFetcher.describe(error);
        failures.incrementAndGet();
        lastFailure = "round " + round + ": " + reason;
        long now = clock.millis();
        boolean inGrace;
        long retryInMs;
        synchronized (this) {
            Attempts wanted = attempts.get(round);
            if (wanted == null) return; // dropped from the bounded attempts while in flight
            inGrace = inGrace(wanted, chain.timeOfMs(round), now);
            wanted.inFlight = false;
            wanted.reason = reason;
            retryInMs = backoffMs(wanted.failed++);
            wanted.nextAtMs = now + retryInMs;
        }
        if (inGrace) {
            LOG.debug("beacon round {} not had yet, again in {} ms: {}", round, retryInMs, reason);
        } else {
            LOG.warn("beacon round {} unreachable, again in {} ms if still wanted: {}", round, retryInMs, reason);
        }
    }

    /**
     * Whether a round not had yet is only "not yet": within the grace after its time, or after its first ask.
     */
    private boolean inGrace(Attempts wanted, long dueMs, long nowMs) {
        return nowMs
                < Math.max(dueMs, wanted.firstAskedMs) + settings.publishGrace().toMillis();
    }

    private long backoffMs(int failedBefore) {
        long first = settings.firstRetry().toMillis();
        long max = settings.maxRetry().toMillis();
        int doublings = Math.min(failedBefore, 30);
        return Math.min(max, first << doublings);
    }

    /** Stops fetching: attempts under way are abandoned, rounds already verified are still answered. */
    @Override
    public void close() {
        synchronized (this) {
            closed = true;
            attempts.clear();
        }
        executor.shutdownNow();
    }
}
