package dev.seckill.stock.draw;

import dev.seckill.stock.draw.beacon.BeaconChain;
import dev.seckill.stock.draw.beacon.BeaconRound;
import dev.seckill.stock.draw.beacon.BeaconSource;
import dev.seckill.stock.draw.beacon.Fetch;
import dev.seckill.stock.draw.beacon.LocalBeacon;
import java.nio.file.Path;

/**
 * A beacon for TopologyTestDriver tests: the rounds of a real local beacon (a real BLS key, each round checked by the
 * same code as drand's), handed over at once when published — no HTTP fetch racing the driver's mocked wall clock — or,
 * while {@link #unreachable} is set, refused as a relay that cannot be reached.
 */
public final class SigningBeacon implements BeaconSource {
    final LocalBeacon beacon;
    volatile String unreachable;

    public SigningBeacon(Path keyFile) throws Exception {
        beacon = LocalBeacon.start(keyFile, 0);
    }

    @Override
    public BeaconChain chain() {
        return beacon.chain();
    }

    @Override
    public Fetch round(long round) {
        if (unreachable != null) return new Fetch.Unreachable(unreachable);
        long due = chain().timeOfMs(round);
        if (due > System.currentTimeMillis()) return new Fetch.NotYet(due);
        BeaconRound r = beacon.sign(round);
        return r.verifies(chain()) ? new Fetch.Ready(r) : new Fetch.Unreachable("the round does not verify");
    }

    @Override
    public void record(BeaconRound round) {}

    @Override
    public void close() {
        beacon.close();
    }
}
