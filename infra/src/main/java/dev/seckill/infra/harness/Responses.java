package dev.seckill.infra.harness;

/** What a load generator reads from the gateway's answers. */
public final class Responses {
    private Responses() {}

    /** The requestId of a 202 body ({@code {"requestId":"…","status":"PENDING"}}). */
    public static String requestId(String body) {
        int at = body.indexOf("\"requestId\"");
        int open = body.indexOf('"', body.indexOf(':', at) + 1);
        return body.substring(open + 1, body.indexOf('"', open + 1));
    }
}
