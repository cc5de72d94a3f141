package dev.seckill.infra.harness;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/** One connection of a {@link RawHttpLoad} run: one request in flight, its answer parsed from the bytes. */
final class RawConnection extends ChannelInboundHandlerAdapter {
    final RawLoop loop;
    final Channel channel;
    private ByteBuf in;
    private int current = -1;

    RawConnection(RawLoop loop, Channel channel) {
        this.loop = loop;
        this.channel = channel;
        loop.conns.add(this);
        loop.idle.add(this);
    }

    void send(int i) {
        current = i;
        channel.writeAndFlush(Unpooled.wrappedBuffer(loop.run.request[i]), channel.voidPromise());
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
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
