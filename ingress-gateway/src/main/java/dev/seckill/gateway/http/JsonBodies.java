package dev.seckill.gateway.http;

import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import io.vertx.ext.web.handler.PlatformHandler;
import java.util.Locale;

/** The gateway's POST bodies: small JSON objects held in memory, nothing else. */
public final class JsonBodies {
    private JsonBodies() {}

    /**
     * Vert.x's default BodyHandler would also take multipart uploads and write them to {@code ./file-uploads}, never
     * deleting them: anyone could fill the disk before auth. Uploads are off and deleted if one ever got through, and
     * the body is bounded.
     */
    public static BodyHandler bounded(int limit) {
        return BodyHandler.create(false)
                .setBodyLimit(limit)
                .setDeleteUploadedFilesOnEnd(true)
                .setMergeFormAttributes(false);
    }

    /**
     * Forms and uploads are refused before their body is read: 415, naming what the door takes. A platform handler,
     * because Vert.x lets only those run before the body handler.
     */
    public static PlatformHandler jsonOnly(Responder responder) {
        return ctx -> {
            String type = ctx.request().getHeader("Content-Type");
            String t = type == null ? "" : type.trim().toLowerCase(Locale.ROOT);
            if (t.startsWith("multipart/") || t.startsWith("application/x-www-form-urlencoded")) {
                responder.reply(ctx, Replies.notJson(), System.nanoTime());
                return;
            }
            ctx.next();
        };
    }

    /** A body over the limit is a 400 naming the body, as any other bad input. */
    public static Handler<RoutingContext> tooLarge(Responder responder) {
        return ctx -> {
            if (ctx.statusCode() == 413) {
                responder.reply(ctx, Replies.invalid("body is larger than the limit", "body"), System.nanoTime());
            } else {
                ctx.next();
            }
        };
    }
}
