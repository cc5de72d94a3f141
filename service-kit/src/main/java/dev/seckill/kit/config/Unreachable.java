package dev.seckill.kit.config;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;

/**
 * A required server does not answer. Its message is the one readable line an operator sees, naming the
 * component and the address: mains print it and exit 2 instead of a stack trace.
 */
public final class Unreachable extends RuntimeException {
    public Unreachable(String component, String address, String hint) {
        super(component + " is not reachable at " + address + (hint == null ? "" : " (" + hint + ")"));
    }

    /** Throws when nothing accepts TCP connections at {@code host:port}. */
    public static void requireTcp(String component, String hostPort, String hint) {
        String first = hostPort.split(",")[0].trim();
        int colon = first.lastIndexOf(':');
        String host = first.substring(0, colon);
        int port = Integer.parseInt(first.substring(colon + 1));
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(host, port), 1000);
        } catch (IOException e) {
            throw new Unreachable(component, first, hint);
        }
    }

    /** host:port of a jdbc:mysql://host:port/db URL. */
    public static String jdbcHostPort(String jdbcUrl) {
        URI u = URI.create(jdbcUrl.substring("jdbc:".length()));
        return u.getHost() + ":" + (u.getPort() < 0 ? 3306 : u.getPort());
    }
}
