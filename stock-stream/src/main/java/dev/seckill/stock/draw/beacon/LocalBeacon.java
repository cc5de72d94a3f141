package dev.seckill.stock.draw.beacon;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.seckill.contracts.Json;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import supranational.blst.SecretKey;

/**
 * A beacon this deployment runs, for tests and the demo where no drand relay is reachable: one BLS key signs each
 * round exactly as drand's quicknet does ({@value BeaconChain#SCHEME}), so {@link BeaconRound#verifies} checks its
 * rounds as it checks quicknet's, and an HTTP server on 127.0.0.1 serves them through drand's API:
 *
 * <ul>
 *   <li>{@code GET /info} and {@code GET /<hash>/info}: the chain ({@code public_key}, {@code period}, {@code
 *       genesis_time}, {@code hash}, {@code schemeID}, {@code metadata.beaconID = "local"});
 *   <li>{@code GET /<hash>/public/<round>}: the signed round, or HTTP 425 while its time has not come;
 *   <li>{@code GET /<hash>/public/latest}: the latest round published;
 *   <li>{@code GET /chains}: the one chain hash.
 * </ul>
 *
 * <p>It holds the key and chain (from its key file, {@link #start(Path, int, int)}), the server and its threads. Its
 * holder can sign any round before its time: a draw seeded by it is only as fair as its operator.
 */
public final class LocalBeacon implements AutoCloseable {
    /** The period of a new local chain when none is asked for. */
    public static final int DEFAULT_PERIOD_SECONDS = 1;

    private static final String USAGE =
            "usage: LocalBeacon --key-file PATH [--port N (0: any)] [--period-seconds S (a new chain's, default 1)]";

    private final SecretKey key;
    private final BeaconChain chain;
    private final Clock clock;
    private final HttpServer server;
    private final ExecutorService executor;
    private final URI url;

    private LocalBeacon(LocalBeaconKey stored, int port, Clock clock) throws IOException {
        this.key = stored.key();
        this.chain = stored.chain();
        this.clock = clock;
        AtomicInteger threads = new AtomicInteger();
        this.executor = Executors.newFixedThreadPool(2, task -> {
            Thread thread = new Thread(task, "local-beacon-" + threads.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
        server.createContext("/", this::serve);
        server.setExecutor(executor);
        server.start();
        this.url = URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /**
     * The beacon of {@code keyFile}'s chain, serving on 127.0.0.1:{@code port} (0: any free port). The key file is
     * created on the first start (a new key, genesis now, {@code periodSeconds}; mode 600) and read on every later
     * one, whose {@code periodSeconds} must then be the file's.
     */
    public static LocalBeacon start(Path keyFile, int port, int periodSeconds) throws IOException {
        if (periodSeconds < 1) throw new IllegalArgumentException("a period of at least 1 s, not " + periodSeconds);
        return new LocalBeacon(
                LocalBeaconKey.loadOrCreate(keyFile, periodSeconds, Clock.systemUTC()), port, Clock.systemUTC());
    }

    /** The chain of {@code keyFile}'s beacon (the file made now when missing), without serving it. */
    public static BeaconChain chainOf(Path keyFile) throws IOException {
        return LocalBeaconKey.loadOrCreate(keyFile, 0, Clock.systemUTC()).chain();
    }

    /** As {@link #start(Path, int, int)}, with the key file's period, or {@value #DEFAULT_PERIOD_SECONDS} s if new. */
    public static LocalBeacon start(Path keyFile, int port) throws IOException {
        return new LocalBeacon(LocalBeaconKey.loadOrCreate(keyFile, 0, Clock.systemUTC()), port, Clock.systemUTC());
    }

    /** The server's base URL ({@code http://127.0.0.1:<port>}), a relay for {@link DrandRelays}. */
    public URI url() {
        return url;
    }

    public BeaconChain chain() {
        return chain;
    }

    /** {@code round} signed, whether or not its time has come (tests; the server refuses rounds not yet due). */
    public BeaconRound sign(long round) {
        if (round < 1) throw new IllegalArgumentException("rounds start at 1, not " + round);
        return new BeaconRound(round, Bls.sign(key, round));
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    private void serve(HttpExchange exchange) throws IOException {
        try {
            if (!"GET".equals(exchange.getRequestMethod())) {
                text(exchange, 405, "only GET is served");
                return;
            }
            List<String> path = List.of(
                    exchange.getRequestURI().getPath().replaceAll("^/+|/+$", "").split("/+"));
            if (path.equals(List.of("info"))) {
                json(exchange, 200, info());
            } else if (path.equals(List.of("chains"))) {
                json(exchange, 200, List.of(chain.hash()));
            } else if (!path.get(0).equals(chain.hash())) {
                text(exchange, 404, "no such chain here: this beacon serves " + chain.hash());
            } else if (path.size() == 2 && path.get(1).equals("info")) {
                json(exchange, 200, info());
            } else if (path.size() == 3 && path.get(1).equals("public")) {
                serveRound(exchange, path.get(2));
            } else {
                text(
                        exchange,
                        404,
                        "not a drand API path: " + exchange.getRequestURI().getPath());
            }
        } finally {
            exchange.close();
        }
    }

    private void serveRound(HttpExchange exchange, String asked) throws IOException {
        long now = clock.millis();
        long round;
        if (asked.equals("latest")) {
            round = chain.roundAt(now);
            if (round == 0) {
                text(exchange, 425, "no round yet: round 1 is due at " + Instant.ofEpochSecond(chain.genesisSeconds()));
                return;
            }
        } else {
            try {
                round = Long.parseLong(asked);
            } catch (NumberFormatException e) {
                round = 0;
            }
            if (round < 1) {
                text(exchange, 400, "a round is a number from 1, not \"" + asked + "\"");
                return;
            }
            if (chain.timeOfMs(round) > now) {
                text(exchange, 425, "round " + round + " is due at " + Instant.ofEpochMilli(chain.timeOfMs(round)));
                return;
            }
        }
        BeaconRound signed = sign(round);
        json(exchange, 200, new DrandJson.Round(round, hex(signed.randomness()), signed.signatureHex()));
    }

    private DrandJson.Info info() {
        return new DrandJson.Info(
                chain.publicKeyHex(),
                chain.periodSeconds(),
                chain.genesisSeconds(),
                chain.hash(),
                chain.scheme(),
                Map.of("beaconID", "local"));
    }

    private static void json(HttpExchange exchange, int status, Object body) throws IOException {
        send(exchange, status, "application/json", Json.write(body));
    }

    private static void text(HttpExchange exchange, int status, String body) throws IOException {
        send(exchange, status, "text/plain; charset=utf-8", (body + "\n").getBytes(StandardCharsets.UTF_8));
    }

    private static void send(HttpExchange exchange, int status, String type, byte[] body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", type);
        exchange.sendResponseHeaders(status, body.length);
        exchange.getResponseBody().write(body);
    }

    private static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }

    /**
     * Runs a local beacon until killed: {@code --key-file PATH} (created on the first run), {@code --port N} (0, the
     * default: any free port), {@code --period-seconds S} (a new chain's period, default 1; an existing key file's
     * must match). Prints one line, {@code beacon local <url> chain <hash>}.
     */
    public static void main(String[] args) throws Exception {
        Path keyFile = null;
        int port = 0;
        Integer period = null;
        try {
            for (int i = 0; i < args.length; i += 2) {
                String flag = args[i];
                if (i + 1 >= args.length) throw new IllegalArgumentException(flag + " needs a value");
                String value = args[i + 1];
                switch (flag) {
                    case "--key-file" -> keyFile = Path.of(value);
                    case "--port" -> port = number(flag, value, 0, 65_535);
                    case "--period-seconds" -> period = number(flag, value, 1, Integer.MAX_VALUE);
                    default -> throw new IllegalArgumentException("unknown argument " + flag);
                }
            }
            if (keyFile == null) throw new IllegalArgumentException("--key-file is needed");
        } catch (IllegalArgumentException e) {
            System.err.println("local beacon: " + e.getMessage() + "; " + USAGE);
            System.exit(2);
            return;
        }
        LocalBeacon beacon;
        try {
            beacon = period == null ? start(keyFile, port) : start(keyFile, port, period);
        } catch (IOException | IllegalArgumentException e) {
            System.err.println("local beacon: " + (e.getMessage() != null ? e.getMessage() : e.toString()));
            System.exit(1);
            return;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(beacon::close, "local-beacon-stop"));
        System.out.println(
                "beacon local " + beacon.url() + " chain " + beacon.chain().hash());
        System.out.flush();
        new CountDownLatch(1).await();
    }

    private static int number(String flag, String value, int min, int max) {
        try {
            int n = Integer.parseInt(value);
            if (n >= min && n <= max) return n;
        } catch (NumberFormatException e) {
            // said below
        }
        throw new IllegalArgumentException(
                flag + " takes a number from " + min + " to " + max + ", not \"" + value + "\"");
    }
}
