// A DNS server on loopback (dns2, UDP) that answers TXT questions from a map the test fills: where SSO domain
// verification looks its challenge records up in tests (config ssoDnsServers / GATEHOUSE_SSO_DNS_SERVERS).
import DNS from "dns2";

export type DnsTxtServer = {
  /** `host:port`, the value for ssoDnsServers. */
  address: string;
  /** Publishes one more TXT value under `name`. */
  publish: (name: string, value: string) => void;
  close: () => void;
};

export async function startDnsTxtServer(): Promise<DnsTxtServer> {
  const records = new Map<string, string[]>();
  const dns = DNS.createUDPServer((request, send) => {
    const response = DNS.Packet.createResponseFromRequest(request);
    const [question] = request.questions;
    for (const data of (question && records.get(question.name)) ?? []) {
      // dns2 encodes plain answer objects (its README's form); its types ask for a class instance.
      response.answers.push({
        name: question?.name ?? "",
        type: DNS.Packet.TYPE.TXT,
        class: DNS.Packet.CLASS.IN,
        ttl: 1,
        data,
      } as unknown as (typeof response.answers)[number]);
    }
    send(response);
  });
  await dns.listen(0, "127.0.0.1");
  const { port } = dns.address();
  return {
    address: `127.0.0.1:${port}`,
    publish: (name, value) => records.set(name, [...(records.get(name) ?? []), value]),
    close: () => dns.close(),
  };
}
