package dev.seckill.kit.config;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A family of settings declared once by its prefix, whose members are named by the one who sets them: {@code kafka.property}
 * takes {@code SECKILL_KAFKA_PROPERTY_<NAME>} from the environment, {@code -Dseckill.kafka.property.<name>} and the
 * override {@code kafka.property.<name>}. A member's name is kept as written in a JVM property or an override; an
 * environment variable's is mapped as Confluent's images map theirs ({@link #memberOfEnv}): lower case, {@code _} a dot,
 * {@code __} an underscore, {@code ___} a dash. Read with {@link #read(Settings)}; enumerated, like {@link Setting}s, from
 * the {@code public static final} fields of its declaring class.
 */
public final class SettingFamily {
    private final String name;
    private final String description;

    private SettingFamily(String name, String description) {
        if (!name.matches("[a-z][a-z0-9]*(\\.[a-z0-9]+)*"))
            throw new IllegalArgumentException("bad setting family name: " + name);
        this.name = name;
        this.description = description;
    }

    public static SettingFamily of(String name, String description) {
        return new SettingFamily(name, description);
    }

    /** The prefix of its override keys, e.g. {@code kafka.property} (a member: {@code kafka.property.linger.ms}). */
    public String name() {
        return name;
    }

    /** The environment variables, as documented: e.g. {@code SECKILL_KAFKA_PROPERTY_<NAME>}. */
    public String env() {
        return envPrefix() + "<NAME>";
    }

    /** The JVM properties, as documented: e.g. {@code seckill.kafka.property.<name>}. */
    public String property() {
        return "seckill." + name + ".<name>";
    }

    public String description() {
        return description;
    }

    String envPrefix() {
        return Setting.envOf(name) + "_";
    }

    /** Every member set, by member name: an override wins over a JVM property, which wins over the environment. */
    public Map<String, String> read(Settings settings) {
        return settings.family(this);
    }

    /**
     * The member an environment variable's suffix names: {@code SSL_ENDPOINT_IDENTIFICATION_ALGORITHM} is {@code
     * ssl.endpoint.identification.algorithm}; a run of two underscores is one underscore, of three a dash.
     */
    public static String memberOfEnv(String suffix) {
        StringBuilder b = new StringBuilder();
        int i = 0;
        while (i < suffix.length()) {
            char c = suffix.charAt(i);
            if (c != '_') {
                b.append(Character.toLowerCase(c));
                i++;
                continue;
            }
            int run = 0;
            while (i < suffix.length() && suffix.charAt(i) == '_') {
                run++;
                i++;
            }
            if (run > 3) throw new BadSetting("cannot map " + suffix + ": more than three underscores in a row");
            b.append(run == 1 ? '.' : run == 2 ? '_' : '-');
        }
        return b.toString();
    }

    /** The environment variable of a member: the inverse of {@link #memberOfEnv} (for a member in lower case). */
    public String envOf(String member) {
        StringBuilder b = new StringBuilder(envPrefix());
        for (char c : member.toCharArray())
            b.append(c == '.' ? "_" : c == '_' ? "__" : c == '-' ? "___" : String.valueOf(Character.toUpperCase(c)));
        return b.toString();
    }

    /** The {@code public static final SettingFamily} fields of a class, in declaration order. */
    public static List<SettingFamily> declaredIn(Class<?> holder) {
        List<SettingFamily> found = new ArrayList<>();
        for (Field f : holder.getDeclaredFields()) {
            int m = f.getModifiers();
            if (f.getType() != SettingFamily.class
                    || !Modifier.isStatic(m)
                    || !Modifier.isFinal(m)
                    || !Modifier.isPublic(m)) continue;
            try {
                found.add((SettingFamily) f.get(null));
            } catch (IllegalAccessException e) {
                throw new IllegalStateException(e);
            }
        }
        return List.copyOf(found);
    }

    @Override
    public String toString() {
        return name;
    }
}
