package dev.seckill.stock;

import dev.seckill.stock.draw.beacon.BeaconSource;
import dev.seckill.stock.draw.beacon.Beacons;
import java.net.URI;
import java.util.Arrays;
import java.util.List;

/** The beacon the stream's settings name ({@link StockStreamSettings#DRAW_BEACON}), or null for {@code off}. */
final class DrawBeacon {
    private DrawBeacon() {}

    static BeaconSource of(StockStreamSettings config) {
        String name = config.drawBeacon().trim();
        if (name.equals("off") || name.isEmpty()) return null;
        List<URI> relays = Arrays.stream(config.drawBeaconUrls().split(","))
                .map(String::trim)
                .filter(u -> !u.isEmpty())
                .map(URI::create)
                .toList();
        return Beacons.from(name, relays);
    }
}
