package dev.seckill.infra.drill;

import dev.seckill.contracts.config.Settings;
import java.util.Map;

/**
 * One isolated run of the pipeline beside any other: its own topic prefix, Redis key prefix, database and
 * consumer groups. Demos, drills and end-to-end tests each get one.
 */
public record Namespace(String name, Settings settings) {

    public static Namespace create(Settings base, String name) {
        String db = "seckill_" + name.replaceAll("[^A-Za-z0-9_]", "_");
        String url = base.dbUrl();
        String server = url.substring(0, url.indexOf('/', "jdbc:mysql://".length()));
        return new Namespace(name, base.and(Map.of(
                Settings.TOPIC_PREFIX, name + ".",
                Settings.REDIS_PREFIX, name + ":",
                Settings.DB_URL, server + "/" + db + "?createDatabaseIfNotExist=true")));
    }

    public String database() {
        String url = settings.dbUrl();
        String path = url.substring(url.indexOf('/', "jdbc:mysql://".length()) + 1);
        int q = path.indexOf('?');
        return q < 0 ? path : path.substring(0, q);
    }
}
