import CombineEx
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension Registry {
  // MARK: Networking

  static let networking: [RegistryEntry] = [
    .generic(
      "URLSession.DataTaskPublisher",
      [
        // The harness drives the session's answer (its first value or completion); the task
        // answers when resumed, before or after that. The map only makes values printable.
        CaseBuilder("URLSession.dataTaskPublisher(for:)", traits: .zeroDemandIsMisuse) { env in
          let session = AnsweringSession.make()
          env.drive(
            "the session's answer", keepAlive: session, canFail: true,
            send: { session.answer(.response("\($0)")) },
            complete: { end in
              // No response at all fails with URLError(.unknown); a failure with its URLError.
              let error = end == .finished ? nil : URLError(.badServerResponse)
              session.answer(AnsweringSession.Outcome(data: nil, response: nil, error: error))
            })
          let canary = env.canary
          return session.dataTaskPublisher(for: URL(string: "http://conformance.invalid/")!)
            .map { canary.pass(String(decoding: $0.data, as: UTF8.self)) }
        }
      ])
  ]
}
