package dev.seckill.stock.draw.beacon;

import dev.seckill.contracts.Json;
import dev.seckill.kit.observability.OneLine;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One attempt at a round over drand's HTTP API: {@code GET <relay>/<chain hash>/public/<round>} of each relay in turn
 * until one answers a round whose signature verifies under the chain, asynchronously. It holds the chain, the relays'
 * base URLs, the HTTP client and the time each relay is given.
 */
final class RelayFetcher {
    private static final HexFormat HEX = HexFormat.of();
    private static final int QUOTED_BODY_CHARS = 80;

    private final BeaconChain chain;
    private final List<URI> relays;
    private final HttpClient http;
    private final Duration timeout;

    /** The outcome of an attempt: the verified round and the relay that gave it, or every relay's reason. */
    record Outcome(BeaconRound round, int relay, String reason) {
        static Outcome failed(String reason) {
            return new Outcome(null, -1, reason);
        }
    }

    /** One relay's answer: a verified round, or what was wrong. */
    private record Answer(BeaconRound round, String problem) {}

    RelayFetcher(BeaconChain chain, List<URI> relays, HttpClient http, Duration timeout) {
        if (relays.isEmpty()) throw new IllegalArgumentException("no relay to fetch beacon rounds from");
        this.chain = chain;
        this.relays = List.copyOf(relays);
        this.http = http;
        this.timeout = timeout;
    }

    /** {@code round} from the relays, {@code first} asked first, then the others in their order; never fails. */
    CompletableFuture<Outcome> fetch(long round, int first) {
        return tryFrom(round, Math.floorMod(first, relays.size()), 0, new ArrayList<>());
    }

    private CompletableFuture<Outcome> tryFrom(long round, int first, int tried, List<String> reasons) {
        if (tried == relays.size()) {
            return CompletableFuture.completedFuture(Outcome.failed(String.join("; ", reasons)));
        }
        int index = (first + tried) % relays.size();
        return ask(relays.get(index), round).thenCompose(answer -> {
            if (answer.round() != null) {
                return CompletableFuture.completedFuture(new Outcome(answer.round(), index, null));
            }
            reasons.add(answer.problem());
            return tryFrom(round, first, tried + 1, reasons);
        });
    }

    private CompletableFuture<Answer> ask(URI relay, long round) {
        try {
            HttpRequest request = HttpRequest.newBuilder(roundUri(relay, chain.hash(), round))
                    .timeout(timeout)
                    .header("Accept", "application/json")
                    .GET()
                    .build();
            return http.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray())
                    .orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS)
                    .handle((response, error) -> error != null
                            ? new Answer(null, "relay " + relay + " unreachable: " + describe(error))
                            : judge(relay, round, response));
        } catch (RuntimeException e) { // a malformed URL, a client already shut down
            return CompletableFuture.completedFuture(
                    new Answer(null, "relay " + relay + " unreachable: " + describe(e)));
        }
    }

    private Answer judge(URI relay, long round, HttpResponse<byte[]> response) {
        String from = "relay " + relay + ": ";
        int status = response.statusCode();
        if (status == 425) return new Answer(null, from + "round " + round + " not published yet (HTTP 425)");
        if (status != 200) return new Answer(null, from + "HTTP " + status + quoted(response.body()));
        DrandJson.Round body;
        try {
            body = Json.read(response.body(), DrandJson.Round.class);
        } catch (UncheckedIOException | IllegalArgumentException e) {
            return new Answer(null, from + "not a drand round" + quoted(response.body()));
        }
        if (body == null || body.signature() == null) return new Answer(null, from + "no signature in its answer");
        if (body.round() != round) {
            return new Answer(null, from + "answered round " + body.round() + " when asked for " + round);
        }
        BeaconRound answered;
        try {
            answered = new BeaconRound(round, HEX.parseHex(body.signature()));
        } catch (IllegalArgumentException e) {
            return new Answer(null, from + "signature is not hex");
        }
        if (!answered.verifies(chain)) return new Answer(null, from + "signature does not verify");
        if (body.randomness() != null && !body.randomness().equalsIgnoreCase(HEX.formatHex(answered.randomness()))) {
            return new Answer(null, from + "randomness is not SHA-256 of the signature");
        }
        return new Answer(answered, null);
    }

    /** {@code <relay>/<hash>/public/<round>}, the relay's own path kept (a relay may serve under a prefix). */
    static URI roundUri(URI relay, String hash, long round) {
        return URI.create(base(relay) + "/" + hash + "/public/" + round);
    }

    /** The relay's URL without a trailing slash, to append drand's paths to. */
    static String base(URI relay) {
        String base = relay.toString();
        while (base.endsWith("/")) base = base.substring(0, base.length() - 1);
        return base;
    }

    /** A failure in a few words: the innermost message there is (a connect refusal, a timeout), or its kind. */
    static String describe(Throwable error) {
        Throwable e = error;
        while ((e instanceof CompletionException || e instanceof ExecutionException) && e.getCause() != null) {
            e = e.getCause();
        }
        if (e instanceof HttpConnectTimeoutException) return "connect timed out";
        if (e instanceof HttpTimeoutException || e instanceof TimeoutException) return "no answer in time";
        if (e instanceof ConnectException
                && (e.getMessage() == null || e.getMessage().isBlank())) {
            return "connection refused";
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            String line = OneLine.of(t.getMessage());
            if (!line.isEmpty()) return line;
            if (t.getCause() == t) break;
        }
        return e.getClass().getSimpleName();
    }

    private static String quoted(byte[] body) {
        if (body == null || body.length == 0) return "";
        String text = OneLine.of(new String(body, StandardCharsets.UTF_8));
        if (text.isEmpty()) return "";
        return " (\"" + (text.length() > QUOTED_BODY_CHARS ? text.substring(0, QUOTED_BODY_CHARS) + "…" : text) + "\")";
    }
}
