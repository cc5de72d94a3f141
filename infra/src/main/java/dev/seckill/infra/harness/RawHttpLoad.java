package dev.seckill.infra.harness;

import dev.seckill.kit.warmup.JitSettle;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;
import java.util.function.LongFunction;

/**
 * A lean HTTP/1.1 load generator for the gateway benchmarks, on Netty directly: each request's bytes are prepared
 * before the clock starts, written with one call, and its answer is read by hand (status line and Content-Length), so
 * the generator costs a fraction of what a full HTTP client costs on the same two cores ("a load generator that is
 * not a bottleneck"). One request in flight per connection. Closed loop (each connection sends the next request when
 * its last is answered) or open loop at a fixed rate ({@link OpenLoopSchedule}): requests become due at the rate
 * whatever the answers, wait for a free connection, and each one's latency counts from when it was due (no
 * coordinated omission). With {@code Prefer: wait} ({@link LoadSpec#waitSeconds()}) a latency is the time to answer.
 */
public final class RawHttpLoad {
    /** What a run measured; {@code latenciesMicros[i]} is request i's, {@code final200[i]} whether it was answered 200. */
    public record Result(
            long requests,
            long accepted,
            Map<Integer, Long> byStatus,
            long errors,
            long elapsedNanos,
            long[] latenciesMicros,
            boolean[] final200,
            long jitMillis) {
        public double acceptedPerSecond() {
            return accepted / (elapsedNanos / 1e9);
        }

        /** The percentile over requests {@code from} onwards, whatever their answer. */
        public double percentileMillis(double p, int from) {
            return Latencies.percentileMillis(latenciesMicros, p, from);
        }

        /** Time to answer over requests {@code from} onwards: a request not answered 200 (its outcome) never knew. */
        public AnswerTimes answerTimes(int from) {
            return AnswerTimes.of(latenciesMicros, final200, from);
        }

        /** Answers that carried the outcome (200), per second of the run. */
        public double answeredPerSecond() {
            return byStatus.getOrDefault(200, 0L) / (elapsedNanos / 1e9);
        }
    }

    private RawHttpLoad() {}

    /** Buyers {@code 1..users}, no JIT wait, the gateway assigning requestIds; {@code rate} 0 for a closed loop. */
    public static Result run(
            int port,
            long goodsId,
            int requests,
            int connections,
            int users,
            long seed,
            LongFunction<String> bearerOf,
            IntConsumer progress,
            double rate)
            throws InterruptedException {
        return run(
                LoadSpec.closed(port, goodsId, requests, connections, users, seed, bearerOf)
                        .atRate(rate),
                progress);
    }

    public static Result run(LoadSpec spec, IntConsumer progress) throws InterruptedException {
        RawRun run = new RawRun(prepare(spec), progress);
        int loops =
                Math.max(1, Math.min(spec.connections(), Runtime.getRuntime().availableProcessors()));
        MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(loops, NioIoHandler.newFactory());
        try {
            Map<EventLoop, RawLoop> byLoop = new IdentityHashMap<>();
            Bootstrap b = new Bootstrap()
                    .group(group)
                    .channel(NioSocketChannel.class)
                    .option(ChannelOption.TCP_NODELAY, true)
                    .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 10_000)
                    .handler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            // the connection's handler is added once it is connected and assigned to its loop
                        }
                    });
            List<Channel> channels = new ArrayList<>();
            for (int c = 0; c < spec.connections(); c++)
                channels.add(b.connect("127.0.0.1", spec.port()).sync().channel());
            for (Channel ch : channels) {
                RawLoop loop = byLoop.computeIfAbsent(ch.eventLoop(), l -> new RawLoop(run));
                ch.pipeline().addLast(new RawConnection(loop, ch));
            }
            List<RawLoop> all = new ArrayList<>(byLoop.values());
            System.gc(); // what was prepared leaves the young generation before the clock starts (as JMH does)
            // and the compiler has finished what the preparation and the last load gave it
            if (!spec.jitQuiet().isZero()) JitSettle.await(spec.jitQuiet());
            long jitBefore = JitSettle.millis();
            long start = System.nanoTime();
            run.start = start;
            for (int l = 0; l < all.size(); l++) {
                RawLoop loop = all.get(l);
                int first = l;
                int stride = all.size();
                EventLoop executor = loop.conns.get(0).channel.eventLoop();
                if (spec.rate() <= 0) {
                    executor.execute(() -> loop.closed(first, stride));
                } else {
                    double share = spec.rate() / all.size();
                    executor.execute(() -> loop.open(first, stride, share));
                    loop.ticker = executor.scheduleAtFixedRate(loop::openTick, 1, 1, TimeUnit.MILLISECONDS);
                }
            }
            if (!run.finished.await(10, TimeUnit.MINUTES))
                throw new IllegalStateException("load did not finish in 10 minutes");
            long elapsed = System.nanoTime() - start;
            for (RawLoop loop : all) if (loop.ticker != null) loop.ticker.cancel(false);
            return new Result(
                    spec.requests(),
                    run.accepted.get(),
                    run.byStatus,
                    run.errors.get(),
                    elapsed,
                    run.latencies,
                    run.final200,
                    JitSettle.millis() - jitBefore);
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    /** Every request's bytes, buyers drawn at random (seeded) from the spec's population. */
    private static byte[][] prepare(LoadSpec spec) {
        Random random = new Random(spec.seed());
        Map<Long, byte[]> byUser = new HashMap<>();
        Map<Long, String> bearers = new HashMap<>();
        LongFunction<String> bearerOf = spec.bearerOf();
        byte[][] request = new byte[spec.requests()][];
        for (int i = 0; i < spec.requests(); i++) {
            long user = spec.firstUser() + random.nextInt(spec.users());
            if (spec.requestIdPrefix() == null) {
                request[i] = byUser.computeIfAbsent(
                        user,
                        u -> encode(
                                spec.port(),
                                spec.goodsId(),
                                u,
                                bearerOf == null ? null : bearerOf.apply(u),
                                null,
                                spec.waitSeconds()));
            } else {
                String bearer = bearerOf == null ? null : bearers.computeIfAbsent(user, bearerOf::apply);
                request[i] = encode(
                        spec.port(), spec.goodsId(), user, bearer, spec.requestIdPrefix() + i, spec.waitSeconds());
            }
        }
        return request;
    }

    /** The whole request: headers and body, as the gateway reads them; {@code wait} &gt; 0 adds {@code Prefer: wait=N}. */
    static byte[] encode(int port, long goodsId, long user, String bearer, String requestId, int wait) {
        byte[] body = ("{\"goodsId\":" + goodsId + ",\"userId\":" + user + ",\"quantity\":1"
                        + (requestId == null ? "" : ",\"requestId\":\"" + requestId + "\"") + "}")
                .getBytes(StandardCharsets.UTF_8);
        String head =
                "POST /api/purchases HTTP/1.1\r\nhost: 127.0.0.1:" + port + "\r\ncontent-type: application/json\r\n"
                        + (bearer == null ? "" : "authorization: " + bearer + "\r\n")
                        + (wait > 0 ? "prefer: wait=" + wait + "\r\n" : "")
                        + "content-length: " + body.length + "\r\n\r\n";
        byte[] h = head.getBytes(StandardCharsets.US_ASCII);
        byte[] all = new byte[h.length + body.length];
        System.arraycopy(h, 0, all, 0, h.length);
        System.arraycopy(body, 0, all, h.length, body.length);
        return all;
    }
}
