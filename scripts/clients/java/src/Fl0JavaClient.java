import com.segment.analytics.Analytics;
import com.segment.analytics.Callback;
import com.segment.analytics.messages.AliasMessage;
import com.segment.analytics.messages.GroupMessage;
import com.segment.analytics.messages.IdentifyMessage;
import com.segment.analytics.messages.Message;
import com.segment.analytics.messages.MessageBuilder;
import com.segment.analytics.messages.PageMessage;
import com.segment.analytics.messages.ScreenMessage;
import com.segment.analytics.messages.TrackMessage;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Sends a fixed set of calls to fl0 through Segment's Java library
 * (com.segment.analytics.java:analytics), with only the endpoint and a callback
 * set and every other setting at its default, as its README shows.
 *
 * <pre>java -cp CLASSES:LIB/* Fl0JavaClient URL WRITE_KEY PREFIX</pre>
 *
 * It sends identify, track, page, screen, group and alias, with ids and message
 * ids that start with PREFIX, flushes, waits for the library to report each
 * message sent or failed (at most 60 s), shuts the client down and prints one
 * JSON line: {"library", "sent", "errors": [...]}.
 */
public final class Fl0JavaClient {
  public static void main(String[] args) throws Exception {
    if (args.length != 3) {
      System.err.println("usage: Fl0JavaClient URL WRITE_KEY PREFIX");
      System.exit(2);
    }
    String url = args[0], writeKey = args[1], prefix = args[2];
    String user = prefix + "-user";
    Date when = Date.from(Instant.parse("2026-02-10T09:30:00Z"));

    List<MessageBuilder> messages = new ArrayList<>();
    messages.add(IdentifyMessage.builder().userId(user).messageId(prefix + "-identify").timestamp(when)
        .traits(map("email", prefix + "@acme.test", "plan", "pro", "employees", 120)));
    messages.add(TrackMessage.builder("Report Created").userId(user).messageId(prefix + "-track").timestamp(when)
        .properties(map("charts", 3, "shared", true, "title", "Q3 \u2603")));
    messages.add(PageMessage.builder("Pricing").userId(user).messageId(prefix + "-page").timestamp(when)
        .properties(map("url", "https://acme.test/pricing", "path", "/pricing", "title", "Pricing")));
    messages.add(ScreenMessage.builder("Settings").userId(user).messageId(prefix + "-screen").timestamp(when)
        .properties(map("tab", "billing")));
    messages.add(GroupMessage.builder(prefix + "-acme").userId(user).messageId(prefix + "-group").timestamp(when)
        .traits(map("name", "Acme", "industry", "Tools")));
    messages.add(AliasMessage.builder(prefix + "-anon").userId(user).messageId(prefix + "-alias").timestamp(when));

    CountDownLatch done = new CountDownLatch(messages.size());
    List<String> errors = Collections.synchronizedList(new ArrayList<>());
    int[] sent = {0};
    Analytics analytics = Analytics.builder(writeKey)
        .endpoint(url)
        .callback(new Callback() {
          @Override public void success(Message message) {
            synchronized (sent) { sent[0]++; }
            done.countDown();
          }
          @Override public void failure(Message message, Throwable error) {
            errors.add(message.type() + ": " + error);
            done.countDown();
          }
        })
        .build();
    for (MessageBuilder m : messages) analytics.enqueue(m);
    analytics.flush();
    boolean all = done.await(60, TimeUnit.SECONDS);
    analytics.shutdown();
    if (!all) errors.add("timed out waiting for the library to report every message");

    StringBuilder out = new StringBuilder("{\"library\":\"analytics-java\",\"sent\":").append(sent[0]).append(",\"errors\":[");
    synchronized (errors) {
      for (int i = 0; i < errors.size(); i++) out.append(i == 0 ? "" : ",").append(quote(errors.get(i)));
    }
    System.out.println(out.append("]}"));
    System.exit(0);
  }

  private static Map<String, Object> map(Object... kv) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) m.put((String) kv[i], kv[i + 1]);
    return m;
  }

  private static String quote(String s) {
    StringBuilder b = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      if (c == '"' || c == '\\') b.append('\\').append(c);
      else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
      else b.append(c);
    }
    return b.append('"').toString();
  }
}
