package dev.seckill.infra.bench;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntConsumer;
import java.util.function.LongFunction;

/**
 * A lean HTTP/1.1 load generator for the gateway benchmark, on Netty directly: each request's bytes are prepared
 * before the clock starts, written with one call, and its answer is read by hand (status line and Content-Length), so
 * the generator costs a fraction of what a full HTTP client costs on the same two cores ("a load generator that is
 * not a bottleneck"). One request in flight per connection. Closed loop (each connection sends the next request when
 * its last is answered) or open loop at a fixed rate: requests become due at the rate whatever the answers, wait for
 * a free connection, and each one's latency counts from when it was due (no coordinated omission).
 */
public final class RawHttpLoad {
    /** What a run measured; {@code latenciesMicros[i]} is request i's. */
    public record Result(long requests, long accepted, Map<Integer, Long> byStatus, long errors, long elapsedNanos,
                         long[] latenciesMicros, long jitMillis) {
        public double acceptedPerSecond() { return accepted / (elapsedNanos / 1e9); }

        /** The percentile over requests {@code from} onwards. */
        public double percentileMillis(double p, int from) {
            return dev.seckill.infra.drill.Latencies.percentileMillis(latenciesMicros, p, from);
        }
    }

    private RawHttpLoad() {}

    /**
     * @param bearerOf the Authorization header value for a buyer, or null when auth is off
     * @param rate     0 for a closed loop, else requests per second offered (open loop)
     */
    public static Result run(int port, long goodsId, int requests, int connections, int users, long seed,
                             LongFunction<String> bearerOf, IntConsumer progress, double rate) throws InterruptedException {
        return run(port, goodsId, requests, connections, 1, users, seed, bearerOf, progress, rate, Duration.ZERO, null);
    }

    /**
     * As above, the buyers being {@code firstUser} to {@code firstUser + users - 1}; before the clock starts, waits up to
     * {@code jitQuiet} for the JIT to finish what it has queued.
     *
     * @param requestIdPrefix when not null, request i carries the client requestId {@code requestIdPrefix + i} (the
     *                        door's idempotent path); otherwise the gateway assigns one
     */
    public static Result run(int port, long goodsId, int requests, int connections, long firstUser, int users, long seed,
                             LongFunction<String> bearerOf, IntConsumer progress, double rate, Duration jitQuiet,
                             String requestIdPrefix) throws InterruptedException {
        Random random = new Random(seed);
        Map<Long, byte[]> byUser = new HashMap<>();
        Map<Long, String> bearers = new HashMap<>();
        byte[][] request = new byte[requests][];
        for (int i = 0; i < requests; i++) {
            long user = firstUser + random.nextInt(users);
            if (requestIdPrefix == null) {
                request[i] = byUser.computeIfAbsent(user, u -> encode(port, goodsId, u, bearerOf == null ? null : bearerOf.apply(u), null));
            } else {
                String bearer = bearerOf == null ? null : bearers.computeIfAbsent(user, bearerOf::apply);
                request[i] = encode(port, goodsId, user, bearer, requestIdPrefix + i);
            }
        }
        Run run = new Run(request, new long[requests], new CountDownLatch(requests), progress);
        int loops = Math.max(1, Math.min(connections, Runtime.getRuntime().availableProcessors()));
        MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(loops, NioIoHandler.newFactory());
        try {
            Map<EventLoop, Loop> byLoop = new IdentityHashMap<>();
            Bootstrap b = new Bootstrap().group(group).channel(NioSocketChannel.class).option(ChannelOption.TCP_NODELAY, true)
                    .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 10_000)
                    .handler(new ChannelInitializer<Channel>() {
                        @Override protected void initChannel(Channel ch) {
                            // the connection's handler is added once it is connected and assigned to its loop
                        }
                    });
            List<Channel> channels = new ArrayList<>();
            for (int c = 0; c < connections; c++) channels.add(b.connect("127.0.0.1", port).sync().channel());
            for (Channel ch : channels) {
                Loop loop = byLoop.computeIfAbsent(ch.eventLoop(), l -> new Loop(run));
                Conn conn = new Conn(loop, ch);
                ch.pipeline().addLast(conn);
            }
            List<Loop> all = new ArrayList<>(byLoop.values());
            System.gc(); // what was prepared leaves the young generation before the clock starts (as JMH does)
            // and the compiler has finished what the preparation and the last load gave it
            if (!jitQuiet.isZero()) JitQuiet.await(jitQuiet);
            long jitBefore = JitQuiet.millis();
            long start = System.nanoTime();
            run.start = start;
            for (int l = 0; l < all.size(); l++) {
                Loop loop = all.get(l);
                int first = l;
                int stride = all.size();
                EventLoop executor = loop.conns.get(0).channel.eventLoop();
                if (rate <= 0) {
                    executor.execute(() -> loop.closed(first, stride));
                } else {
                    double share = rate / all.size();
                    executor.execute(() -> loop.openTick(first, stride, share));
                    loop.ticker = executor.scheduleAtFixedRate(() -> loop.openTick(first, stride, share), 1, 1, TimeUnit.MILLISECONDS);
                }
            }
            if (!run.finished.await(10, TimeUnit.MINUTES)) throw new IllegalStateException("load did not finish in 10 minutes");
            long elapsed = System.nanoTime() - start;
            for (Loop loop : all) if (loop.ticker != null) loop.ticker.cancel(false);
            return new Result(requests, run.accepted.get(), run.byStatus, run.errors.get(), elapsed, run.latencies,
                    JitQuiet.millis() - jitBefore);
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    /** The whole request: headers and body, as the gateway reads them. */
    static byte[] encode(int port, long goodsId, long user, String bearer, String requestId) {
        byte[] body = ("{\"goodsId\":" + goodsId + ",\"userId\":" + user + ",\"quantity\":1"
                + (requestId == null ? "" : ",\"requestId\":\"" + requestId + "\"") + "}").getBytes(StandardCharsets.UTF_8);
        String head = "POST /api/purchases HTTP/1.1\r\nhost: 127.0.0.1:" + port + "\r\ncontent-type: application/json\r\n"
                + (bearer == null ? "" : "authorization: " + bearer + "\r\n") + "content-length: " + body.length + "\r\n\r\n";
        byte[] h = head.getBytes(StandardCharsets.US_ASCII);
        byte[] all = new byte[h.length + body.length];
        System.arraycopy(h, 0, all, 0, h.length);
        System.arraycopy(body, 0, all, h.length, body.length);
        return all;
    }

    /** What every connection shares. */
    private static final class Run {
        final byte[][] request;
        final long[] latencies;
        final long[] due;
        final CountDownLatch finished;
        final IntConsumer progress;
        final AtomicInteger next = new AtomicInteger();
        final AtomicInteger done = new AtomicInteger();
        final AtomicLong accepted = new AtomicLong();
        final AtomicLong errors = new AtomicLong();
        final Map<Integer, Long> byStatus = new ConcurrentHashMap<>();
        volatile long start;

        Run(byte[][] request, long[] latencies, CountDownLatch finished, IntConsumer progress) {
            this.request = request;
            this.latencies = latencies;
            this.due = new long[request.length];
            this.finished = finished;
            this.progress = progress;
        }

        void answered(int i, int status, long now) {
            latencies[i] = (now - due[i]) / 1000;
            if (status > 0) byStatus.merge(status, 1L, Long::sum);
            else errors.incrementAndGet();
            if (status == 202) accepted.incrementAndGet();
            int n = done.incrementAndGet();
            if ((n & 1023) == 0 || n == request.length) progress.accept(n);
            finished.countDown();
        }
    }

    /** One event loop's connections and, in an open loop, its queue of due requests (touched only on that loop). */
    private static final class Loop {
        final Run run;
        final List<Conn> conns = new ArrayList<>();
        final ArrayDeque<Conn> idle = new ArrayDeque<>();
        final ArrayDeque<Integer> dueQueue = new ArrayDeque<>();
        int issued;
        boolean open;
        int nextFirst;
        int nextStride;
        java.util.concurrent.ScheduledFuture<?> ticker;

        Loop(Run run) { this.run = run; }

        /** Closed loop: every connection of this loop sends; each answer sends the next request of this loop's share. */
        void closed(int first, int stride) {
            nextFirst = first;
            nextStride = stride;
            for (Conn c : conns) sendNextClosed(c);
        }

        void sendNextClosed(Conn c) {
            int i = nextFirst + issued * nextStride;
            if (i >= run.request.length) return;
            issued++;
            run.due[i] = System.nanoTime();
            c.send(i);
        }

        /** Open loop: what has become due joins the queue; idle connections take from it. */
        void openTick(int first, int stride, double rate) {
            open = true;
            long now = System.nanoTime();
            while (true) {
                int i = first + issued * stride;
                if (i >= run.request.length) break;
                long due = run.start + (long) (issued / rate * 1e9);
                if (due > now) break;
                run.due[i] = due;
                issued++;
                dueQueue.add(i);
            }
            while (!dueQueue.isEmpty() && !idle.isEmpty()) idle.poll().send(dueQueue.poll());
        }

        void free(Conn c) {
            if (!open) {
                sendNextClosed(c);
                return;
            }
            Integer i = dueQueue.poll();
            if (i == null) idle.add(c);
            else c.send(i);
        }
    }

    /** One connection: one request in flight, its answer parsed from the bytes. */
    private static final class Conn extends ChannelInboundHandlerAdapter {
        final Loop loop;
        final Channel channel;
        ByteBuf in;
        int current = -1;

        Conn(Loop loop, Channel channel) {
            this.loop = loop;
            this.channel = channel;
            loop.conns.add(this);
            loop.idle.add(this);
        }

        void send(int i) {
            current = i;
            channel.writeAndFlush(Unpooled.wrappedBuffer(loop.run.request[i]), channel.voidPromise());
        }

        @Override public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf buf = (ByteBuf) msg;
            if (in == null) in = ctx.alloc().buffer(512);
            in.writeBytes(buf);
            buf.release();
            while (current >= 0) {
                int status = complete(in);
                if (status == 0) return;
                int i = current;
                current = -1;
                loop.run.answered(i, status, System.nanoTime());
                in.discardReadBytes();
                loop.free(this);
            }
        }

        @Override public void channelInactive(ChannelHandlerContext ctx) {
            if (current >= 0) loop.run.answered(current, -1, System.nanoTime());
            current = -1;
            loop.idle.remove(this);
            if (in != null) in.release();
            in = null;
        }

        @Override public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) { ctx.close(); }

        /** The status of the whole response at the reader index (consumed), or 0 while it has not all arrived. */
        static int complete(ByteBuf in) {
            int from = in.readerIndex();
            int end = in.writerIndex();
            int headersEnd = -1;
            for (int i = from; i + 3 < end; i++) {
                if (in.getByte(i) == '\r' && in.getByte(i + 1) == '\n' && in.getByte(i + 2) == '\r' && in.getByte(i + 3) == '\n') {
                    headersEnd = i + 4;
                    break;
                }
            }
            if (headersEnd < 0) return 0;
            String head = in.toString(from, headersEnd - from, StandardCharsets.US_ASCII);
            int status = Integer.parseInt(head.substring(9, 12));
            int at = head.toLowerCase(java.util.Locale.ROOT).indexOf("\ncontent-length:");
            int length = 0;
            if (at >= 0) {
                int eol = head.indexOf('\r', at + 1);
                length = Integer.parseInt(head.substring(at + 16, eol).trim());
            }
            if (end - headersEnd < length) return 0;
            in.readerIndex(headersEnd + length);
            return status;
        }
    }
}
