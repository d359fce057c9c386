import CombineExCore
import Testing

@Suite("Subscriptions.empty")
struct SubscriptionsEmptyTests {
  @Test("request and cancel do nothing, however often they are called")
  func requestAndCancelAreNoOps() {
    let empty = Subscriptions.empty
    empty.request(.max(1))
    empty.request(.unlimited)
    empty.cancel()
    empty.cancel()
    empty.request(.max(1))
  }

  @Test("it is one shared subscription")
  func shared() {
    #expect(Subscriptions.empty.combineIdentifier == Subscriptions.empty.combineIdentifier)
  }

  @Test("a subscriber given it receives nothing more until the publisher completes")
  func usedByAPublisher() {
    let recorder = Empty<Int, Never>(completeImmediately: false).record()
    #expect(recorder.isSubscribed)
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion == nil)
    recorder.request(.max(3))
    recorder.cancel()
    #expect(recorder.events.count == 1)
  }

  @Test("it describes itself as Combine's does: \"Empty\", with no children")
  func description() {
    #expect(String(describing: Subscriptions.empty) == "Empty")
    #expect((Subscriptions.empty as? any CustomReflectable)?.customMirror.children.isEmpty == true)
    let playground =
      (Subscriptions.empty as? any CustomPlaygroundDisplayConvertible)?
      .playgroundDescription as? String
    #expect(playground == "Empty")
  }
}
