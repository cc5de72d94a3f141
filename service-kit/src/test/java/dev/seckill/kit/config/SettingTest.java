package dev.seckill.kit.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("fast")
class SettingTest {
    public static final Setting<Integer> SIZE = Setting.integer("test.size", 7, "a size");
    public static final Setting<String> NAME =
            Setting.text("test.name", s -> s.topicPrefix() + "x", "<topic prefix>x", "a name");
    static final Setting<Boolean> NOT_PUBLIC = Setting.flag("test.hidden", true, "not enumerated");

    @Test
    void names_map_to_property_and_environment_variable() {
        assertThat(SIZE.env()).isEqualTo("SECKILL_TEST_SIZE");
        assertThat(SIZE.property()).isEqualTo("seckill.test.size");
        assertThat(SharedSettings.KAFKA_BOOTSTRAP.env()).isEqualTo("SECKILL_KAFKA_BOOTSTRAP");
        assertThat(SharedSettings.SALE_KEY_GRACE_MS.env()).isEqualTo("SECKILL_SALE_KEY_GRACE_MS");
    }

    @Test
    void override_then_property_then_default() {
        assertThat(Settings.with(Map.of()).get(SIZE)).isEqualTo(7);
        System.setProperty("seckill.test.size", "9");
        try {
            assertThat(Settings.with(Map.of()).get(SIZE)).isEqualTo(9);
            assertThat(Settings.with(Map.of("test.size", "11")).get(SIZE)).isEqualTo(11);
        } finally {
            System.clearProperty("seckill.test.size");
        }
    }

    @Test
    void a_computed_default_sees_the_other_settings_and_is_documented_as_declared() {
        assertThat(Settings.with(Map.of(Settings.TOPIC_PREFIX, "p.")).get(NAME)).isEqualTo("p.x");
        assertThat(NAME.documentedDefault()).isEqualTo("<topic prefix>x");
        assertThat(Settings.with(Map.of(Settings.TOPIC_PREFIX, "q.")).get(SharedSettings.WRITER_GROUP_ID))
                .isEqualTo("q.order-writer");
    }

    @Test
    void is_set_only_with_a_value_of_its_own() {
        assertThat(Settings.with(Map.of()).isSet(SIZE)).isFalse();
        assertThat(Settings.with(Map.of("test.size", "7")).isSet(SIZE)).isTrue();
    }

    @Test
    void flags_parse_as_Boolean_parseBoolean() {
        Setting<Boolean> on = Setting.flag("test.on", true, "on");
        assertThat(Settings.with(Map.of("test.on", "TRUE")).get(on)).isTrue();
        assertThat(Settings.with(Map.of("test.on", "yes")).get(on)).isFalse();
        assertThat(Settings.with(Map.of()).get(on)).isTrue();
    }

    @Test
    void a_bad_number_fails_the_read() {
        assertThatThrownBy(() -> Settings.with(Map.of("test.size", "x")).get(SIZE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("SECKILL_TEST_SIZE: ")
                .hasCauseInstanceOf(NumberFormatException.class);
    }

    @Test
    void declared_in_lists_the_public_static_final_settings_in_order() {
        assertThat(Setting.declaredIn(SettingTest.class)).containsExactly(SIZE, NAME);
        assertThat(SharedSettings.all())
                .startsWith(SharedSettings.KAFKA_BOOTSTRAP)
                .contains(SharedSettings.WRITER_GROUP_ID);
    }

    @Test
    void names_are_dotted_lower_case() {
        assertThatThrownBy(() -> Setting.integer("Gateway_Port", 1, "bad"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
