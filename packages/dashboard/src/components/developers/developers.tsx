import { useState } from "preact/hooks";
import { request } from "../../api/client.ts";
import { webhookEndpointsQuery } from "../../api/developer-documents.ts";
import { useQuery } from "../../api/use-query.ts";
import { Deliveries } from "./deliveries.tsx";
import { WebhookEndpoints } from "./endpoints.tsx";
import { Events } from "./events.tsx";
import { CreateTestCredentials } from "./test-credentials.tsx";
import { SendTestEvent } from "./test-event.tsx";

/**
 * The Developers section (issue 37): the signed-in user's webhook endpoints, a test event, its
 * events with replay, and an endpoint's delivery log. Every part reads the same endpoint list;
 * `revision` reloads what a change may have moved.
 */
export function Developers({ onWalletsMade }: { onWalletsMade(): void }) {
  const [revision, setRevision] = useState(0);
  const [watched, setWatched] = useState("");
  const endpoints = useQuery((signal) => request(webhookEndpointsQuery, {}, signal), [revision]);
  const list = endpoints.data?.webhookEndpoints ?? [];
  const changed = () => setRevision((value) => value + 1);
  // The deliveries shown: the endpoint last acted on, or the first one.
  const shown = list.some((item) => item.id === watched) ? watched : (list[0]?.id ?? "");
  const watch = (id: string) => {
    setWatched(id);
    changed();
  };
  const showDeliveries = (id: string) => {
    watch(id);
    document.getElementById("deliveries-title")?.scrollIntoView();
    document.getElementById("deliveries-endpoint")?.focus();
  };

  return (
    <>
      <WebhookEndpoints
        endpoints={endpoints.data?.webhookEndpoints}
        loadError={endpoints.error}
        onChanged={changed}
        onShowDeliveries={showDeliveries}
      />
      <SendTestEvent endpoints={list} onSent={watch} />
      <Events endpoints={list} revision={revision} onReplayed={watch} />
      <Deliveries endpoints={list} endpoint={shown} revision={revision} onPick={setWatched} />
      <CreateTestCredentials onWalletsMade={onWalletsMade} />
    </>
  );
}
