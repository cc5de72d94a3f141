package dev.seckill.infra.harness;

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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The raw generator of an {@link HttpLoad}: one connection on Netty directly, one request in flight, each request's
 * bytes prepared before the clock starts and written with one call, its answer read by hand (status line and
 * Content-Length), so that the generator costs a fraction of what a full HTTP client costs on the same two cores ("a
 * load generator that is not a bottleneck").
 */
final class RawConnection extends ChannelInboundHandlerAdapter implements LoadLoop.Lane {
    private final LoadLoop loop;
    private final Channel channel;
    private final byte[][] request;
    private ByteBuf in;
    private int current = -1;

    private RawConnection(LoadLoop loop, Channel channel, byte[][] request) {
        this.loop = loop;
        this.channel = channel;
        this.request = request;
        loop.idle.add(this);
    }

    /** The run's connections, opened before its clock starts, grouped by the event loop each was given. */
    static HttpLoad.Lanes open(LoadSpec spec, LoadRun run) throws InterruptedException {
        byte[][] request = prepare(spec, run);
        int loops =
                Math.max(1, Math.min(spec.connections(), Runtime.getRuntime().availableProcessors()));
        MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(loops, NioIoHandler.newFactory());
        Map<EventLoop, LoadLoop> byLoop = new IdentityHashMap<>();
        HttpLoad.Lanes lanes = new HttpLoad.Lanes(
                new ArrayList<>(),
                () -> group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly());
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
        try {
            List<Channel> channels = new ArrayList<>();
            for (int c = 0; c < spec.connections(); c++)
                channels.add(b.connect("127.0.0.1", spec.port()).sync().channel());
            for (Channel ch : channels) {
                LoadLoop loop = byLoop.computeIfAbsent(
                        ch.eventLoop(),
                        l -> new LoadLoop(run, l, task -> {
                            ScheduledFuture<?> f = l.scheduleAtFixedRate(task, 1, 1, TimeUnit.MILLISECONDS);
                            return () -> f.cancel(false);
                        }));
                ch.pipeline().addLast(new RawConnection(loop, ch, request));
            }
        } catch (InterruptedException | RuntimeException e) {
            lanes.close();
            throw e;
        }
        lanes.loops().addAll(byLoop.values());
        return lanes;
    }

    /** Every request's bytes; without client requestIds, one array per buyer (a buyer's requests are alike). */
    private static byte[][] prepare(LoadSpec spec, LoadRun run) {
        Map<Long, byte[]> byUser = new HashMap<>();
        byte[][] request = new byte[run.requests()][];
        for (int i = 0; i < request.length; i++) {
            int at = i;
            request[i] = spec.requestIdPrefix() == null
                    ? byUser.computeIfAbsent(run.user[i], u -> encode(spec, u, run.bearer(at), null))
                    : encode(spec, run.user[i], run.bearer(i), run.requestId(i));
        }
        return request;
    }

    /** The whole request as the gateway reads it: {@link PurchaseHttp}'s body and headers, as bytes. */
    static byte[] encode(LoadSpec spec, long user, String bearer, String requestId) {
        byte[] body = PurchaseHttp.body(spec.goodsId(), user, 1, requestId).getBytes(StandardCharsets.UTF_8);
        String head = "POST " + PurchaseHttp.PATH + " HTTP/1.1\r\nhost: 127.0.0.1:" + spec.port()
                + "\r\ncontent-type: application/json\r\n"
                + (bearer == null ? "" : "authorization: " + bearer + "\r\n")
                + (spec.waitSeconds() > 0 ? "prefer: wait=" + spec.waitSeconds() + "\r\n" : "")
                + "content-length: " + body.length + "\r\n\r\n";
        byte[] h = head.getBytes(StandardCharsets.US_ASCII);
        byte[] all = new byte[h.length + body.length];
        System.arraycopy(h, 0, all, 0, h.length);
        System.arraycopy(body, 0, all, h.length, body.length);
        return all;
    }

    @Override
    public void send(int i) {
        current = i;
        channel.writeAndFlush(Unpooled.wrappedBuffer(request[i]), channel.voidPromise());
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf buf = (ByteBuf) msg;
        if (in == null) in = ctx.alloc().buffer(512);
        in.writeBytes(buf);
        buf.release();
        while (current >= 0) {
            int from = in.readerIndex();
            int status = complete(in);
            if (status == 0) return;
            int i = current;
            current = -1;
            long now = System.nanoTime();
            if (status == 202 && loop.run.keepsIds())
                loop.run.acceptedId(in.toString(from, in.readerIndex() - from, StandardCharsets.UTF_8));
            loop.run.answered(i, status, now);
            in.discardReadBytes();
            loop.free(this);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (current >= 0) loop.run.answered(current, -1, System.nanoTime());
        current = -1;
        loop.idle.remove(this);
        if (in != null) in.release();
        in = null;
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }

    /** The status of the whole response at the reader index (consumed), or 0 while it has not all arrived. */
    static int complete(ByteBuf in) {
        int from = in.readerIndex();
        int end = in.writerIndex();
        int headersEnd = -1;
        for (int i = from; i + 3 < end; i++) {
            if (in.getByte(i) == '\r'
                    && in.getByte(i + 1) == '\n'
                    && in.getByte(i + 2) == '\r'
                    && in.getByte(i + 3) == '\n') {
                headersEnd = i + 4;
                break;
            }
        }
        if (headersEnd < 0) return 0;
        String head = in.toString(from, headersEnd - from, StandardCharsets.US_ASCII);
        int status = Integer.parseInt(head.substring(9, 12));
        int at = head.toLowerCase(Locale.ROOT).indexOf("\ncontent-length:");
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
