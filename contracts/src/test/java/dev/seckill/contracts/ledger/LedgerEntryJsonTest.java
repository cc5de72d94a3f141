package dev.seckill.contracts.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.contracts.Json;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The hand-written ledger entry encoding is byte for byte Jackson's, and reads back as the same entry. */
@Tag("fast")
class LedgerEntryJsonTest {
    @Test
    void encodesExactlyAsJackson() {
        Random random = new Random(5);
        String[] ids = {"r-1", "b12345", "a.b:c-d_e", "quo\"te", "uni\u00e9", "back\\slash"};
        for (int i = 0; i < 5_000; i++) {
            LedgerType type = i % 19 == 0 ? null : LedgerType.values()[random.nextInt(LedgerType.values().length)];
            String requestId = i % 4 == 0 ? null : ids[i % ids.length] + i;
            LedgerEntry e = new LedgerEntry(
                    1,
                    i % 9 == 0 ? "op\"" + i : LedgerEntry.deductOpId(random.nextInt(1_000_000), "r" + i),
                    random.nextInt(1_000_000),
                    type,
                    random.nextInt(100),
                    i % 3 == 0 ? null : random.nextLong(),
                    requestId,
                    i % 5 == 0 ? null : random.nextLong() & Long.MAX_VALUE,
                    random.nextInt(2_000) - 1,
                    instant(random, i % 7 == 0),
                    instant(random, i % 2 == 0),
                    i % 6 == 0 ? null : random.nextLong() & Long.MAX_VALUE,
                    null,
                    instant(random, i % 8 == 0),
                    i % 10 == 0 ? null : (long) random.nextInt(1_000_000),
                    bucket(random, i));
            String mine = new String(LedgerEntryJson.encode(e), StandardCharsets.UTF_8);
            assertThat(mine).isEqualTo(new String(Json.write(e), StandardCharsets.UTF_8));
            assertThat(Json.read(LedgerEntryJson.encode(e), LedgerEntry.class)).isEqualTo(e);
        }
    }

    /** Half the entries of a one-bucket sale, the rest in a bucket: a third of those a transfer's, some an open's. */
    private static BucketOf bucket(Random random, int i) {
        if (i % 2 == 0) return null;
        int count = 2 + random.nextInt(BucketOf.MAX_COUNT - 1);
        int index = random.nextInt(count);
        if (i % 3 == 0) return BucketOf.of(index, count, random.nextInt(64)).withPeer((index + 1) % count);
        return i % 5 == 0
                ? BucketOf.of(index, count, random.nextInt(64)).withClaims(1 + random.nextInt(count))
                : BucketOf.of(index, count, random.nextInt(64));
    }

    private static Instant instant(Random random, boolean absent) {
        return absent
                ? null
                : Instant.ofEpochSecond(
                        1_700_000_000L + random.nextInt(100_000_000),
                        random.nextInt(3) == 0 ? 0 : random.nextInt(1_000_000_000));
    }
}
