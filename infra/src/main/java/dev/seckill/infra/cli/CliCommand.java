package dev.seckill.infra.cli;

import dev.seckill.infra.harness.Flags;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * One command of {@code ./seckill}: its words ({@code bench gateway}), its operands, the flags it accepts and a line
 * saying what it does. Its flags are parsed from here ({@link #parse(String[])}) and the usage text is made from here
 * ({@link CliHelp.usage()}), so a flag cannot be accepted without being listed.
 *
 * @param operands what follows the words other than flags, as shown ({@code <service>}), or empty
 */
public record CliCommand(String words, String operands, List<Option> options, String summary) {

    /**
     * A flag: {@code --name value} (its placeholder, e.g. {@code N}) or a switch {@code --name} (placeholder null). The
     * placeholder also says what the value is: {@code N}, {@code R}, {@code S}, {@code U} and {@code X} a number,
     * {@code N,...}, {@code G,...} or a list of examples such as {@code 20,50,100} numbers separated by commas; any
     * other value is refused at parse time, naming the flag.
     *
     * @param defaultValue the value an absent flag takes, as the command reads it ({@link Flags#get(String)}), or null
     * @param whenAbsent what an absent optional flag without a declared default means, in words ({@code "--requests /
     *     2 (at least 1)"}, {@code "the live namespace"}, {@code "none"}), or null; shown beside the defaults
     */
    public record Option(String name, String placeholder, boolean required, String defaultValue, String whenAbsent) {
        private static final Set<String> NUMBER = Set.of("N", "R", "S", "U", "X");

        public Option {
            if (defaultValue != null && whenAbsent != null)
                throw new IllegalArgumentException("--" + name + " declares a default (" + defaultValue
                        + "): it needs no when-absent text (" + whenAbsent + ")");
            if (whenAbsent != null && (required || placeholder == null))
                throw new IllegalArgumentException(
                        "--" + name + ": only an optional value says what its absence means");
        }

        public Option(String name, String placeholder, boolean required, String defaultValue) {
            this(name, placeholder, required, defaultValue, null);
        }

        /** The value is one number. */
        public boolean number() {
            return placeholder != null && NUMBER.contains(placeholder);
        }

        /** The value is numbers separated by commas. */
        public boolean numbers() {
            return placeholder != null && placeholder.matches("[NG],\\.\\.\\.|\\d+(,\\d+)+");
        }

        /**
         * An optional flag with no literal default: the command reads it with a fallback it computes, or only when it
         * is given; {@link #whenAbsent(String)} says which.
         */
        public static Option value(String name, String placeholder) {
            return new Option(name, placeholder, false, null);
        }

        /** An optional flag and its default, the one place it is set: the command reads it with {@code get(name)}. */
        public static Option value(String name, String placeholder, String defaultValue) {
            return new Option(name, placeholder, false, defaultValue);
        }

        /** This flag, saying what its absence means: {@code value("users", "N").whenAbsent("--requests / 2")}. */
        public Option whenAbsent(String meaning) {
            return new Option(name, placeholder, required, defaultValue, meaning);
        }

        public static Option required(String name, String placeholder) {
            return new Option(name, placeholder, true, null);
        }

        public static Option flag(String name) {
            return new Option(name, null, false, null);
        }

        String shown() {
            return "--" + name + (placeholder == null ? "" : " " + placeholder);
        }
    }

    public static CliCommand of(String words, String summary, Option... options) {
        return new CliCommand(words, "", List.of(options), summary);
    }

    /** The flags after the command's words, checked against the ones it accepts and their values' kinds. */
    public Flags parse(String[] args) {
        Map<String, String> defaults = new LinkedHashMap<>();
        for (Option o : options) if (o.defaultValue() != null) defaults.put(o.name(), o.defaultValue());
        Flags f = new Flags(
                args,
                words.split(" ").length,
                names(o -> o.placeholder() != null),
                names(o -> o.placeholder() == null),
                defaults,
                names(Option::required));
        for (Option o : options) if (o.number() || o.numbers()) f.requireNumber(o.name(), o.numbers());
        return f;
    }

    /** Every flag name this command accepts (values and switches). */
    public Set<String> flagNames() {
        return names(o -> true);
    }

    /** {@code sale open --goods N --stock N [--minutes N --limit N --force]}. */
    public String usage() {
        StringBuilder b = new StringBuilder(words);
        if (!operands.isEmpty()) b.append(' ').append(operands);
        String required =
                options.stream().filter(Option::required).map(Option::shown).collect(Collectors.joining(" "));
        String optional =
                options.stream().filter(o -> !o.required()).map(Option::shown).collect(Collectors.joining(" "));
        if (!required.isEmpty()) b.append(' ').append(required);
        if (!optional.isEmpty()) b.append(" [").append(optional).append(']');
        return b.toString();
    }

    /** {@code --requests 50000, --concurrency 500}: each flag's declared default, or "" when none declares one. */
    public String defaults() {
        return options.stream()
                .filter(o -> o.defaultValue() != null)
                .map(o -> "--" + o.name() + " " + (o.defaultValue().isEmpty() ? "\"\"" : o.defaultValue()))
                .collect(Collectors.joining(", "));
    }

    /**
     * {@code --users: --requests / 2 (at least 1)}, one entry per flag that declares what its absence means, in
     * declaration order (help puts each on a line of its own, docs/cli.md joins them with "; ").
     */
    public List<String> whenAbsent() {
        return options.stream()
                .filter(o -> o.whenAbsent() != null)
                .map(o -> "--" + o.name() + ": " + o.whenAbsent())
                .toList();
    }

    private Set<String> names(Predicate<Option> which) {
        return options.stream().filter(which).map(Option::name).collect(Collectors.toUnmodifiableSet());
    }

    @Override
    public String toString() {
        return usage();
    }
}
