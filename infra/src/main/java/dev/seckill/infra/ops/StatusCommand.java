package dev.seckill.infra.ops;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.seckill.infra.harness.Flags;
import dev.seckill.infra.harness.JsonOutput;
import dev.seckill.infra.harness.stack.Component;
import java.io.PrintStream;
import java.util.List;

/**
 * {@code status}: each component of the local stack — Kafka, Redis, MySQL, the services {@code up --services} started
 * and its Prometheus — with its address and UP or DOWN; {@code --json}: the same as one document. Exit 0 when every
 * component listed answers, 1 otherwise.
 */
public final class StatusCommand {
    private StatusCommand() {}

    public static int run(List<Component> components, Flags f, PrintStream out) {
        if (f.has("json")) out.println(json(components));
        else components.forEach(c -> out.println(c.line()));
        return components.stream().allMatch(Component::up) ? 0 : 1;
    }

    static String json(List<Component> components) {
        ObjectNode root = JsonOutput.object();
        ArrayNode list = root.putArray("components");
        for (Component c : components) {
            ObjectNode n = list.addObject();
            n.put("name", c.name());
            n.put("address", c.address());
            n.put("state", c.up() ? "UP" : "DOWN");
            if (!c.see().isEmpty()) n.put("see", c.see());
        }
        root.put("allUp", components.stream().allMatch(Component::up));
        return JsonOutput.render(root);
    }
}
