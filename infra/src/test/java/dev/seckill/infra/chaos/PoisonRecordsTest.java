package dev.seckill.infra.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seckill.contracts.command.CommandCodec;
import dev.seckill.contracts.command.ParsedCommand;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The poison storm's records are hostile in every way the codec must refuse, and none of them is a valid purchase. */
@Tag("fast")
class PoisonRecordsTest {
    @Test
    void everyRecordIsPoisonOrAnInvalidPurchaseNeverAValidCommand() {
        Random random = new Random(3);
        int poison = 0;
        int invalid = 0;
        for (int n = 0; n < 300; n++) {
            ParsedCommand parsed = CommandCodec.decode(PoisonRecords.make(random, 1001, n));
            assertThat(parsed).as("record %d", n).isNotInstanceOf(ParsedCommand.Valid.class);
            if (parsed instanceof ParsedCommand.Poison p) {
                assertThat(p.reason()).isNotBlank();
                poison++;
            } else invalid++;
        }
        // kinds 0-7 of every ten are poison (DLQ), 8 and 9 are answerable purchases with bad fields (REJECTED invalid)
        assertThat(poison).isEqualTo(240);
        assertThat(invalid).isEqualTo(60);
    }
}
