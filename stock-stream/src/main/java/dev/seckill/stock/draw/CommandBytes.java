package dev.seckill.stock.draw;

/** What the {@link DrawHold} reads of a command record without parsing it: the goods its key names, a byte pattern. */
final class CommandBytes {
    private CommandBytes() {}

    /** The goods a record's key names, or null when the key is not a goods id (the decision DLQs such a record). */
    static Long goodsOf(String key) {
        if (key == null || key.isEmpty() || key.length() > 19) return null;
        for (int i = 0; i < key.length(); i++) if (key.charAt(i) < '0' || key.charAt(i) > '9') return null;
        try {
            return Long.parseLong(key);
        } catch (NumberFormatException beyondLong) {
            return null;
        }
    }

    static boolean contains(byte[] haystack, byte[] needle) {
        if (haystack == null) return false;
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) if (haystack[i + j] != needle[j]) continue outer;
            return true;
        }
        return false;
    }
}
