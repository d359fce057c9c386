import CombineEx
import Dispatch
import Testing

/// Misuse of property composition: each stops the program with a `CombineEx API violation:`
/// message that says what to change.
@Suite("misuse: properties")
struct PropertyMisuseTests {
  @Test("lift whose transform drops the first value stops the program with a message")
  func liftWithoutFirstValueStops() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = MutableProperty(1).lift { $0.dropFirst() }
    }
    let message = result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) }
    #expect(message?.contains("CombineEx API violation: lift(_:)") == true)
    #expect(message?.contains("did not publish a value when subscribed") == true)
  }

  @Test("lift whose transform delivers the first value later stops the program")
  func liftWithLateFirstValueStops() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = MutableProperty(1).lift { $0.receive(on: DispatchQueue(label: "later")) }
    }
    #expect(
      result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) }?
        .contains("CombineEx API violation: lift(_:)") == true)
  }

  @Test("lift of an empty transformed stream stops the program")
  func liftOfEmptyStops() async {
    await #expect(processExitsWith: .failure) {
      _ = MutableProperty(1).lift { _ in Empty<Int, Never>() }
    }
  }
}
