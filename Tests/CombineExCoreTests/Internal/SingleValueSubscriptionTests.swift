import CombineExCore
import Testing

/// The subscription of `Just`, `Optional.Publisher` and `Result.Publisher`, at Combine's edges.
@Suite("Just, Optional.Publisher and Result.Publisher subscriptions")
struct SingleValueSubscriptionTests {
  @Test("each describes itself as Combine's does: Just, Optional, Once")
  func descriptions() {
    var names: [String] = []
    let subscriber = AnySubscriber<Int, Never>(receiveSubscription: { names.append("\($0)") })
    Just(1).subscribe(subscriber)
    Optional(1).publisher.subscribe(subscriber)
    Result<Int, Never>.success(1).publisher.subscribe(subscriber)
    #expect(names == ["Just", "Optional", "Once"])
  }

  @Test("a request of zero to Just stops the program, as in Combine")
  func zeroRequestJust() async {
    await #expect(processExitsWith: .failure) {
      Just(1).subscribe(AnySubscriber(receiveSubscription: { $0.request(.none) }))
    }
  }

  @Test("a request of zero to Optional.Publisher stops the program")
  func zeroRequestOptional() async {
    await #expect(processExitsWith: .failure) {
      Optional(1).publisher.subscribe(
        AnySubscriber(receiveSubscription: { $0.request(.none) }))
    }
  }

  @Test("a request of zero to Result.Publisher stops the program")
  func zeroRequestResult() async {
    await #expect(processExitsWith: .failure) {
      Result<Int, Never>.success(1).publisher.subscribe(
        AnySubscriber(receiveSubscription: { $0.request(.none) }))
    }
  }
}
