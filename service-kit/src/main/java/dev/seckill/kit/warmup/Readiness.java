package dev.seckill.kit.warmup;

import java.util.concurrent.atomic.AtomicReference;

/**
 * Whether a service is ready for traffic, for its {@code /health}: {@code starting} (not wired yet), {@code warming}
 * (wired and serving, but its code paths are still cold — a load balancer should not send it a sale yet), {@code UP}.
 * A service that never warms is UP as soon as it started.
 */
public final class Readiness {
    public enum State {
        STARTING("starting"),
        WARMING("warming"),
        UP("UP");

        public final String label;

        State(String label) {
            this.label = label;
        }
    }

    private final AtomicReference<State> state;

    public Readiness(State initial) {
        this.state = new AtomicReference<>(initial);
    }

    /** Starts {@link State#UP}: for a service that does not warm itself (tests, drills). */
    public static Readiness noWarmup() {
        return new Readiness(State.UP);
    }

    public State state() {
        return state.get();
    }

    public boolean ready() {
        return state.get() == State.UP;
    }

    public void warming() {
        state.set(State.WARMING);
    }

    public void up() {
        state.set(State.UP);
    }
}
