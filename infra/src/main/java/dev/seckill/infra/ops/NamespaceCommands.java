package dev.seckill.infra.ops;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.seckill.infra.harness.Flags;
import dev.seckill.infra.harness.JsonOutput;
import dev.seckill.infra.harness.Namespaces;
import dev.seckill.kit.config.Settings;
import dev.seckill.kit.kafka.KafkaClients;
import java.io.PrintStream;
import java.util.List;

/**
 * {@code --namespace NAME} for every command that reads or writes the system's data, {@code ./seckill namespaces} and
 * {@code ./seckill clean --namespace NAME}.
 */
public final class NamespaceCommands {
    private NamespaceCommands() {}

    /** The settings a command works on: the namespace named by {@code --namespace}, else the live one. */
    public static Settings chosen(Settings base, Flags f) {
        if (!f.has("namespace")) return base;
        KafkaClients.require(base, "run ./seckill up");
        return new Namespaces(base).settingsOf(f.get("namespace", ""));
    }

    /** {@code namespaces}: a table, or with {@code --json} one document with the same columns. */
    public static int list(Settings base, Flags f, PrintStream out) {
        KafkaClients.require(base, "run ./seckill up");
        List<Namespaces.Entry> entries = new Namespaces(base).list();
        out.print(f.has("json") ? json(entries) + "\n" : text(entries));
        return 0;
    }

    static String text(List<Namespaces.Entry> entries) {
        StringBuilder b = new StringBuilder(String.format("%-40s %7s  %-8s%n", "namespace", "topics", "database"));
        for (Namespaces.Entry e : entries)
            b.append(String.format(
                    "%-40s %7d  %-8s%s%n",
                    e.name(), e.topics(), e.database() ? "yes" : "no", e.live() ? "  (live)" : ""));
        return b.toString();
    }

    static String json(List<Namespaces.Entry> entries) {
        ObjectNode root = JsonOutput.object();
        ArrayNode list = root.putArray("namespaces");
        for (Namespaces.Entry e : entries)
            list.addObject()
                    .put("name", e.name())
                    .put("topics", e.topics())
                    .put("database", e.database())
                    .put("live", e.live());
        return JsonOutput.render(root);
    }

    public static int clean(Settings base, Flags f, PrintStream out) {
        KafkaClients.require(base, "run ./seckill up");
        Namespaces namespaces = new Namespaces(base);
        String name = f.get("namespace", "");
        namespaces.settingsOf(name); // says which exist when this one does not
        out.println("cleaning namespace " + name + ":");
        for (String line : namespaces.clean(name)) out.println("  removed " + line);
        return 0;
    }
}
