import CombineExCore
import Foundation
import Testing

/// An error that can be encoded, to check a completion's encoded form.
private struct CodableError: Error, Codable, Hashable {
  let code: Int
}

@Suite("Subscribers.Completion")
struct CompletionTests {
  private typealias Completion = Subscribers.Completion<CodableError>

  @Test("completions are Equatable when their failure is")
  func equatable() {
    #expect(Completion.finished == .finished)
    #expect(Completion.failure(CodableError(code: 1)) == .failure(CodableError(code: 1)))
    #expect(Completion.failure(CodableError(code: 1)) != .failure(CodableError(code: 2)))
    #expect(Completion.finished != .failure(CodableError(code: 1)))
    #expect(Subscribers.Completion<Never>.finished == .finished)
  }

  @Test("completions are Hashable when their failure is")
  func hashable() {
    let set: Set<Completion> = [
      .finished, .finished, .failure(CodableError(code: 1)), .failure(CodableError(code: 1)),
    ]
    #expect(set.count == 2)
  }

  @Test("a completion survives an encode/decode round trip")
  func codableRoundTrip() throws {
    let completions: [Completion] = [.finished, .failure(CodableError(code: 7))]
    let data = try JSONEncoder().encode(completions)
    #expect(try JSONDecoder().decode([Completion].self, from: data) == completions)
  }

  @Test("the encoded form is Combine's: success, then the error for a failure")
  func encodedForm() throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let finished = try encoder.encode(Completion.finished)
    let failure = try encoder.encode(Completion.failure(CodableError(code: 7)))
    #expect(String(decoding: finished, as: UTF8.self) == #"{"success":true}"#)
    #expect(
      String(decoding: failure, as: UTF8.self) == #"{"error":{"code":7},"success":false}"#)
  }

  @Test("decoding a failure without its error throws")
  func decodingMissingErrorThrows() {
    let data = Data(#"{"success":false}"#.utf8)
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(Completion.self, from: data)
    }
  }
}
