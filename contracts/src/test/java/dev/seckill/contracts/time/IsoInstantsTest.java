package dev.seckill.contracts.time;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The hand-written instant parser agrees with {@link Instant#parse} on what it accepts, rejects and returns. */
@Tag("fast")
class IsoInstantsTest {
    static Instant reference(String s) {
        try {
            return Instant.parse(s);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    @Test
    void agreesWithInstantParseOnRandomInstantsAtEveryPrecision() {
        Random random = new Random(42);
        for (int i = 0; i < 20_000; i++) {
            Instant t = Instant.ofEpochSecond(
                    random.nextInt(2_000_000_000) * (random.nextBoolean() ? 1L : 2L), random.nextInt(1_000_000_000));
            String full = t.toString();
            assertThat(IsoInstants.parse(full)).as(full).isEqualTo(t);
            String trimmed = full.substring(0, 19)
                    + (i % 10 == 0
                            ? ""
                            : "."
                                    + Integer.toString(t.getNano() + 1_000_000_000)
                                            .substring(1, 1 + i % 10)) + "Z";
            assertThat(IsoInstants.parse(trimmed)).as(trimmed).isEqualTo(reference(trimmed));
        }
    }

    @Test
    void rejectsWhatInstantParseRejects_andFallsBackForOtherShapes() {
        String[] cases = {
            "2026-02-30T10:00:00Z",
            "2026-13-01T10:00:00Z",
            "2026-11-29T24:00:00Z",
            "2026-11-29T10:60:00Z",
            "2026-11-29T10:00:60Z",
            "2026-11-29T10:00:00",
            "2026-11-29 10:00:00Z",
            "2026-11-29T10:00:00.Z",
            "2026-11-29T10:00:00.1234567890Z",
            "2026-1a-29T10:00:00Z",
            "2024-02-29T23:59:59.999Z",
            "2026-11-29T10:00:00+01:00",
            "+12026-11-29T10:00:00Z",
            "",
            "not a date",
            "2026-11-29T10:00:00.000000001Z"
        };
        for (String c : cases) assertThat(IsoInstants.parse(c)).as(c).isEqualTo(reference(c));
        assertThat(IsoInstants.parse("2024-02-29T23:59:59.999Z")).isEqualTo(Instant.parse("2024-02-29T23:59:59.999Z"));
    }

    @Test
    void formatsExactlyAsInstantToString() {
        Random random = new Random(11);
        for (int i = 0; i < 50_000; i++) {
            long seconds = (random.nextLong() % 400_000_000_000L);
            int nanos = switch (i % 4) {
                case 0 -> 0;
                case 1 -> random.nextInt(1000) * 1_000_000;
                case 2 -> random.nextInt(1_000_000) * 1_000;
                default -> random.nextInt(1_000_000_000);
            };
            Instant t = Instant.ofEpochSecond(seconds, nanos);
            assertThat(IsoInstants.append(new StringBuilder(), t).toString())
                    .as("%s", t)
                    .isEqualTo(t.toString());
        }
        for (Instant t : new Instant[] {
            Instant.EPOCH,
            Instant.MIN,
            Instant.MAX,
            Instant.parse("0000-01-01T00:00:00Z"),
            Instant.parse("9999-12-31T23:59:59.999999999Z"),
            Instant.parse("-0001-12-31T23:59:59Z")
        }) {
            assertThat(IsoInstants.append(new StringBuilder(), t).toString()).isEqualTo(t.toString());
        }
    }
}
