package dev.seckill.kit.observability;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("fast")
class OneLineTest {
    @Test
    void givenFlywaysMessageUnderARuleOfDashes_whenMadeOneLine_thenEveryLineIsKeptAndTheRuleIsNot() {
        String flyway = "Unable to obtain connection from database (jdbc:mysql://mariadb:3306/seckill) for user"
                + " 'seckill': Access denied\n"
                + "-------------------------------------------------------------------------------------------\n"
                + "SQL State  : 28000\n"
                + "Error Code : 1045\n"
                + "Message    : Access denied for user 'seckill'@'10.89.0.7' (using password: YES)\n\n";

        String line = OneLine.of(flyway);

        assertThat(line)
                .doesNotContain("\n", "\r", "---")
                .isEqualTo("Unable to obtain connection from database (jdbc:mysql://mariadb:3306/seckill) for user"
                        + " 'seckill': Access denied; SQL State : 28000; Error Code : 1045;"
                        + " Message : Access denied for user 'seckill'@'10.89.0.7' (using password: YES)");
    }

    @Test
    void givenOneLineOrNothing_whenMadeOneLine_thenItIsUnchangedOrEmpty() {
        assertThat(OneLine.of("Kafka is not reachable at kafka:9092"))
                .isEqualTo("Kafka is not reachable at kafka:9092");
        assertThat(OneLine.of("a\r\n\tb  c")).isEqualTo("a; b c");
        assertThat(OneLine.of(null)).isEmpty();
        assertThat(OneLine.of("-5 units")).isEqualTo("-5 units");
        assertThat(OneLine.message(new IllegalStateException("----\n")))
                .isEqualTo("java.lang.IllegalStateException: ----");
        assertThat(OneLine.message(new NullPointerException())).isEqualTo("java.lang.NullPointerException");
        assertThat(OneLine.message(new IllegalStateException("a\nb"))).isEqualTo("a; b");
    }
}
