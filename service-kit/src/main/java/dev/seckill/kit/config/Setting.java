package dev.seckill.kit.config;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * One configuration setting, declared once: its name ({@code gateway.port}: JVM property {@code seckill.gateway.port},
 * environment variable {@code SECKILL_GATEWAY_PORT}), its type, its default and a line saying what it does. Read with
 * {@link Settings#get(Setting)} (the lookup order is {@link Settings}'); the default is computed only when the setting
 * is not set, so it may depend on other settings (a group id from the topic prefix) or the machine (its CPU count).
 * Each service declares its settings as {@code public static final} fields of one class ({@code GatewaySettings}, …),
 * which {@link #declaredIn(Class)} enumerates for the documentation checks.
 */
public final class Setting<T> {
    private final String name;
    private final Function<String, T> parse;
    private final Function<Settings, T> fallback;
    private final String documentedDefault;
    private final String description;
    private final boolean secret;

    private Setting(
            String name,
            Function<String, T> parse,
            Function<Settings, T> fallback,
            String documentedDefault,
            String description) {
        this(name, parse, fallback, documentedDefault, description, false);
    }

    private Setting(
            String name,
            Function<String, T> parse,
            Function<Settings, T> fallback,
            String documentedDefault,
            String description,
            boolean secret) {
        if (!name.matches("[a-z][a-z0-9]*(\\.[a-z0-9]+)*"))
            throw new IllegalArgumentException("bad setting name: " + name);
        this.name = name;
        this.parse = parse;
        this.fallback = fallback;
        this.documentedDefault = documentedDefault;
        this.description = description;
        this.secret = secret;
    }

    public static Setting<String> text(String name, String fallback, String description) {
        return new Setting<>(name, v -> v, s -> fallback, fallback, description);
    }

    /** A text whose default is computed from the other settings or the machine, documented as {@code documentedDefault}. */
    public static Setting<String> text(
            String name, Function<Settings, String> fallback, String documentedDefault, String description) {
        return new Setting<>(name, v -> v, fallback, documentedDefault, description);
    }

    /**
     * A secret (empty by default): set directly, or read from the file named by {@code <ENV>_FILE} (a Kubernetes or
     * compose secret mounted as a file; one trailing line break dropped). A value that is a known placeholder or has
     * fewer than {@code minBits} bits of randomness is refused with one line naming the variable ({@link SecretValues}).
     */
    public static Setting<String> secret(String name, int minBits, String description) {
        return new Setting<>(name, v -> SecretValues.require(envOf(name), v, minBits), s -> "", "", description, true);
    }

    public static Setting<Integer> integer(String name, int fallback, String description) {
        return new Setting<>(name, Integer::parseInt, s -> fallback, Integer.toString(fallback), description);
    }

    /** An int whose default is computed, documented as {@code documentedDefault}. */
    public static Setting<Integer> integer(
            String name, Function<Settings, Integer> fallback, String documentedDefault, String description) {
        return new Setting<>(name, Integer::parseInt, fallback, documentedDefault, description);
    }

    public static Setting<Long> number(String name, long fallback, String description) {
        return new Setting<>(name, Long::parseLong, s -> fallback, Long.toString(fallback), description);
    }

    /** {@code true} only for the text "true" (any case), as {@link Boolean#parseBoolean(String)}. */
    public static Setting<Boolean> flag(String name, boolean fallback, String description) {
        return new Setting<>(name, Boolean::parseBoolean, s -> fallback, Boolean.toString(fallback), description);
    }

    /** The name of the property, e.g. {@code gateway.port} (a key of {@link Settings#with}). */
    public String name() {
        return name;
    }

    /** The environment variable, e.g. {@code SECKILL_GATEWAY_PORT}. */
    public String env() {
        return envOf(name);
    }

    /** The JVM system property, e.g. {@code seckill.gateway.port}. */
    public String property() {
        return "seckill." + name;
    }

    /** The default as the documentation states it (empty: the empty text). */
    public String documentedDefault() {
        return documentedDefault;
    }

    public String description() {
        return description;
    }

    /** True for a {@link #secret}: it may also be read from the file {@code <ENV>_FILE} names. */
    public boolean isSecret() {
        return secret;
    }

    T read(Settings settings) {
        Optional<String> value = settings.find(name);
        if (secret) {
            Optional<String> file = settings.find(name + ".file");
            if (file.isPresent() && value.isPresent())
                throw new IllegalArgumentException(env() + " and " + env() + "_FILE are both set: set one");
            if (file.isPresent()) value = file.map(this::fileContent);
        }
        try {
            return value.map(parse).orElseGet(() -> fallback.apply(settings));
        } catch (IllegalArgumentException e) {
            // a bad value names its variable, in one line (a NumberFormatException says only "For input string")
            String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            throw new IllegalArgumentException(message.startsWith(env()) ? message : env() + ": " + message, e);
        }
    }

    private String fileContent(String path) {
        try {
            String content = Files.readString(Path.of(path));
            return content.endsWith("\n") ? content.substring(0, content.length() - 1) : content;
        } catch (IOException e) {
            throw new IllegalArgumentException(env() + "_FILE: cannot read " + path + " (" + e.getMessage() + ")");
        }
    }

    static String envOf(String name) {
        return "SECKILL_" + name.toUpperCase().replace('.', '_');
    }

    /** The {@code public static final Setting} fields of a class, in declaration order. */
    public static List<Setting<?>> declaredIn(Class<?> holder) {
        List<Setting<?>> found = new ArrayList<>();
        for (Field f : holder.getDeclaredFields()) {
            int m = f.getModifiers();
            if (f.getType() != Setting.class || !Modifier.isStatic(m) || !Modifier.isFinal(m) || !Modifier.isPublic(m))
                continue;
            try {
                found.add((Setting<?>) f.get(null));
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
