package dev.seckill.infra.chaos;

import java.nio.charset.StandardCharsets;
import java.util.Random;

/** Hostile command records, as a broken or malicious upstream producer writes them. */
final class PoisonRecords {
    private PoisonRecords() {}

    /** The {@code n}-th poison record of a storm on {@code goods}; the kinds rotate, the details are random. */
    static byte[] make(Random random, long goods, int n) {
        String id = "poison-" + n + "-" + Integer.toString(random.nextInt(1 << 30), 36);
        String json = switch (n % 10) {
            case 0 -> "{\"type\":\"purchase\",\"goodsId\":" + goods + ",\"userId\":"; // cut short
            case 1 -> null; // binary
            case 2 -> "{\"type\":\"nuke\",\"goodsId\":" + goods + "}";
            case 3 -> "{\"goodsId\":" + goods + ",\"userId\":1,\"quantity\":1}"; // no type
            case 4 -> "[1,2,3]";
            case 5 -> "{\"v\":9,\"type\":\"purchase\",\"goodsId\":" + goods + "}";
            case 6 -> purchase("x".repeat(200), goods, 1, 1); // an id over 64 characters
            case 7 -> purchase("../../op:open-" + n, goods, 1, 1); // an id that tries another namespace
            case 8 -> purchase(id, goods, 7, 0); // quantity 0: invalid, but answerable
            default -> purchase(id, goods, -5, 1); // a negative buyer: invalid, but answerable
        };
        if (json == null) {
            byte[] bytes = new byte[1 + random.nextInt(200)];
            random.nextBytes(bytes);
            bytes[0] = (byte) 0xff; // never a valid start of JSON
            return bytes;
        }
        return json.getBytes(StandardCharsets.UTF_8);
    }

    private static String purchase(String requestId, long goods, long user, int quantity) {
        return "{\"type\":\"purchase\",\"requestId\":\"" + requestId + "\",\"goodsId\":" + goods + ",\"userId\":" + user
                + ",\"quantity\":" + quantity + ",\"acceptedAt\":\"" + java.time.Instant.now() + "\"}";
    }
}
