package io.einvoice.as4;

import java.util.Map;

import com.helger.json.IJson;
import com.helger.json.IJsonObject;
import com.helger.json.serialize.JsonReader;

/**
 * The engine's JSON: flat objects of strings in (the control API's body, the gateway's answer),
 * objects of strings, booleans and nested objects out. Reading uses ph-json (already on phase4's
 * classpath); writing is the few lines below, so that field order stays as written.
 */
final class JsonText
{
  private JsonText ()
  {}

  /** The object's string field, or null when the text is no JSON object or the field is absent. */
  static String field (final IJsonObject object, final String name)
  {
    if (object == null)
      return null;
    final Object value = object.getValue (name);
    return value == null ? null : value.toString ();
  }

  /** The text as a JSON object, or null when it is not one. */
  static IJsonObject parseObject (final String text)
  {
    final IJson json = text == null || text.isBlank () ? null : JsonReader.readFromString (text);
    return json != null && json.isObject () ? json.getAsObject () : null;
  }

  /** Writes a map (insertion-ordered) of String, Boolean, Number and nested maps as JSON. */
  static String write (final Map <String, ?> object)
  {
    final StringBuilder out = new StringBuilder ();
    writeValue (out, object);
    return out.toString ();
  }

  private static void writeValue (final StringBuilder out, final Object value)
  {
    if (value == null)
      out.append ("null");
    else
      if (value instanceof Boolean || value instanceof Number)
        out.append (value);
      else
        if (value instanceof Map <?, ?> map)
        {
          out.append ('{');
          boolean first = true;
          for (final Map.Entry <?, ?> entry : map.entrySet ())
          {
            if (!first)
              out.append (',');
            first = false;
            writeString (out, entry.getKey ().toString ());
            out.append (':');
            writeValue (out, entry.getValue ());
          }
          out.append ('}');
        }
        else
          writeString (out, value.toString ());
  }

  private static void writeString (final StringBuilder out, final String text)
  {
    out.append ('"');
    for (int i = 0; i < text.length (); i++)
    {
      final char c = text.charAt (i);
      switch (c)
      {
        case '"':
          out.append ("\\\"");
          break;
        case '\\':
          out.append ("\\\\");
          break;
        case '\n':
          out.append ("\\n");
          break;
        case '\r':
          out.append ("\\r");
          break;
        case '\t':
          out.append ("\\t");
          break;
        default:
          if (c < 0x20)
            out.append (String.format ("\\u%04x", (int) c));
          else
            out.append (c);
      }
    }
    out.append ('"');
  }
}
