import CombineExCore
import Testing

/// An object for an `Assign` to write to.
private final class AssignTarget {
  var value = 0
}

@Suite("Sink and Assign in a debugger: mirrors and playground descriptions")
struct SubscribersReflectionTests {
  @Test("a Sink's playground description is its description, and its mirror has no children")
  func sink() {
    let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
    #expect(sink.playgroundDescription as? String == "Sink")
    #expect(sink.customMirror.children.isEmpty)
  }

  @Test("an Assign's mirror shows the object, the key path and the status, in that order")
  func assignMirror() {
    let counter = AssignTarget()
    let assign = Subscribers.Assign(object: counter, keyPath: \AssignTarget.value)
    #expect(assign.playgroundDescription as? String == "Assign AssignTarget.")
    let children = Array(assign.customMirror.children)
    #expect(children.map(\.label) == ["object", "keyPath", "status"])
    #expect(children[0].value as? AssignTarget === counter)
    let keyPath = children[1].value as? ReferenceWritableKeyPath<AssignTarget, Int>
    #expect(keyPath == \AssignTarget.value)
    #expect(children[2].value as? String == "awaiting subscription")
  }

  @Test("an Assign's status is the subscription while subscribed; after cancel the object is gone")
  func assignStatusFollowsTheSubscription() {
    let counter = AssignTarget()
    let assign = Subscribers.Assign(object: counter, keyPath: \AssignTarget.value)
    PassthroughSubject<Int, Never>().subscribe(assign)
    let subscribed = Array(assign.customMirror.children)
    #expect(subscribed[2].value is any Subscription)
    assign.cancel()
    let ended = Array(assign.customMirror.children)
    #expect(ended[0].value as? AssignTarget == nil)
    #expect(ended[2].value as? String == "terminal")
  }
}
