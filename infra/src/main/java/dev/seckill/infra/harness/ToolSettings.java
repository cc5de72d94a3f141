package dev.seckill.infra.harness;

import dev.seckill.kit.config.Setting;
import java.util.List;

/** The settings of the tools in infra (the CLI, the demo and the drills), each declared once. */
public final class ToolSettings {
    private ToolSettings() {}

    public static final Setting<String> HOME = Setting.text(
            "home", ".seckill", "the local stack's data and logs (the launcher sets it to .seckill next to itself)");

    /** Every setting declared here, in order. */
    public static List<Setting<?>> all() {
        return Setting.declaredIn(ToolSettings.class);
    }
}
