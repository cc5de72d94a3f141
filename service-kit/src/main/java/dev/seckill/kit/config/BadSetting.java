package dev.seckill.kit.config;

/**
 * A setting that cannot work as given (an unknown protocol, a file that is not there): its message is the one readable
 * line an operator sees, naming the setting. Mains print it and exit 2 instead of a stack trace, as for {@link
 * Unreachable}.
 */
public final class BadSetting extends IllegalStateException {
    public BadSetting(String message) {
        super(message);
    }
}
