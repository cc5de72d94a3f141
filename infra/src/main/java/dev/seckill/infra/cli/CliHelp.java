package dev.seckill.infra.cli;

import java.util.List;

/** {@code ./seckill <command> --help} and {@code ./seckill help <command>}: one command's usage, from its declaration. */
public final class CliHelp {
    /** What {@link CliCommands#JSON} does, added to the help of every command that accepts it. */
    static final String JSON =
            "--json: the output as one JSON document on stdout (the same figures as the text); progress and notes go to"
                    + " stderr";

    private CliHelp() {}

    /**
     * The command {@code args} name (the longest declared words they start with, flags skipped), or null: what
     * {@code ./seckill <command> --help} and {@code ./seckill help <command>} describe.
     */
    public static CliCommand named(List<String> args) {
        List<String> words = args.stream().filter(a -> !a.startsWith("-")).toList();
        CliCommand best = null;
        for (CliCommand c : CliCommands.all()) {
            List<String> w = List.of(c.words().split(" "));
            if (words.size() >= w.size()
                    && words.subList(0, w.size()).equals(w)
                    && (best == null || w.size() > best.words().split(" ").length)) best = c;
        }
        return best;
    }

    /**
     * The commands of a group {@code args} name by its first word ({@code sale}, {@code bench}, {@code dlq}, ...): what
     * {@code ./seckill sale --help} and {@code ./seckill help bench} describe. Empty when no command starts with it.
     */
    public static List<CliCommand> group(List<String> args) {
        List<String> words = args.stream().filter(a -> !a.startsWith("-")).toList();
        if (words.isEmpty()) return List.of();
        return CliCommands.all().stream()
                .filter(c -> c.words().split(" ")[0].equals(words.get(0)))
                .toList();
    }

    /**
     * One command's help: its usage with every flag it accepts, what it does, each flag's default and, one a line, what
     * each optional flag without one means when absent.
     */
    public static String help(CliCommand c) {
        String defaults = c.defaults();
        List<String> absent = c.whenAbsent();
        return "usage: ./seckill " + c.usage() + "\n\n" + c.summary()
                + (defaults.isEmpty() ? "" : "\ndefaults: " + defaults)
                + (absent.isEmpty() ? "" : "\nwhen absent:\n  " + String.join("\n  ", absent))
                + (c.options().contains(CliCommands.JSON) ? "\n" + JSON : "");
    }

    /** {@code ./seckill help}: every command with its flags, then every configuration variable. */
    public static String usage() {
        StringBuilder b = new StringBuilder("usage: ./seckill <command>");
        for (CliCommand c : CliCommands.all()) {
            String u = c.usage();
            b.append("\n  ").append(u);
            if (u.length() < 25) {
                b.append(" ".repeat(25 - u.length())).append(c.summary());
            } else {
                b.append("\n").append(" ".repeat(27)).append(c.summary());
            }
        }
        return b.append('\n').append(Configuration.usage()).toString();
    }
}
