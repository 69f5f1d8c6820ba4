import { describe, expect, it } from "vitest";
import { classifyMailError } from "./mailer.server";

describe("classifyMailError", () => {
  it("a 5xx about the recipient is permanent, with the SMTP answer", () => {
    const error = classifyMailError({ code: "EENVELOPE", responseCode: 550, response: "550 5.1.1 <x@example.test>: No such user", message: "Can't send mail" });
    expect(error).toMatchObject({ kind: "permanent", responseCode: 550 });
    expect(error.message).toContain("550 5.1.1");
    expect(classifyMailError({ code: "EMESSAGE", responseCode: 554, response: "554 rejected" }).kind).toBe("permanent");
  });

  it("4xx answers, connection failures and the relay refusing us (auth) are temporary", () => {
    expect(classifyMailError({ code: "EMESSAGE", responseCode: 451, response: "451 4.7.1 try later" }).kind).toBe("temporary");
    expect(classifyMailError({ code: "ECONNECTION", message: "connect ECONNREFUSED 127.0.0.1:2525" })).toMatchObject({ kind: "temporary", message: "ECONNECTION: connect ECONNREFUSED 127.0.0.1:2525" });
    expect(classifyMailError({ code: "ETIMEDOUT", message: "Timeout" }).kind).toBe("temporary");
    expect(classifyMailError({ code: "EAUTH", responseCode: 535, response: "535 Authentication failed" }).kind).toBe("temporary");
    expect(classifyMailError({ code: "EENVELOPE", responseCode: 530, response: "530 Authentication required" }).kind).toBe("temporary");
    expect(classifyMailError(new Error("socket hang up")).kind).toBe("temporary");
  });
});
