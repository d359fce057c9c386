import CombineEx
import CombineExTesting
import Foundation
import Testing

private struct Failed: Error {}

private final class Label: BindTargetProviding, @unchecked Sendable {
  // @unchecked Sendable: the tests touch it from one thread at a time.
  var text = ""
  var optionalText: String?
  var handled: [String] = []
}

private final class Tracked: NSObject {
  var count = 0
}

@Suite("BindTarget <~ publisher")
struct BindTargetTests {
  @Test("a key path target receives each value on its scheduler")
  func keyPathTarget() {
    let label = Label()
    let title = PassthroughSubject<String, Never>()
    label.bind(receiveOn: ImmediateScheduler.shared, \.text) <~ title
    title.send("Inbox")
    #expect(label.text == "Inbox")
  }

  @Test("a handler target is called with the target object and each value")
  func handlerTarget() {
    let label = Label()
    let title = PassthroughSubject<String, Never>()
    label.bind(receiveOn: ImmediateScheduler.shared) { (label: Label, value: String) in
      label.handled.append(value)
    } <~ title
    title.send("a")
    title.send("b")
    #expect(label.handled == ["a", "b"])
  }

  @Test("an optional key path takes non-optional values")
  func optionalTarget() {
    let label = Label()
    let names = PassthroughSubject<String, Failed>()
    label.bind(receiveOn: ImmediateScheduler.shared, \.optionalText) <~ names
    names.send("Ada")
    #expect(label.optionalText == "Ada")
  }

  @Test("a failure ends the binding without being delivered")
  func failureEndsBinding() {
    let label = Label()
    let values = PassthroughSubject<String, Failed>()
    weak var weakCanary: Box<Int>?
    do {
      let canary = Box(0)
      weakCanary = canary
      label.bind(receiveOn: ImmediateScheduler.shared, \.text)
        <~ values.handleEvents(receiveOutput: { _ in _ = canary })
    }
    values.send("one")
    #expect(weakCanary != nil)
    values.send(completion: .failure(Failed()))
    values.send("two")
    #expect(label.text == "one")
    #expect(weakCanary == nil)
  }

  @Test("every NSObject is a BindTargetProviding")
  func nsObjectTarget() {
    let tracked = Tracked()
    let counts = PassthroughSubject<Int, Never>()
    tracked.bind(receiveOn: ImmediateScheduler.shared, \.count) <~ counts
    counts.send(4)
    #expect(tracked.count == 4)
  }

  @Test("neither the target nor the source keeps the other alive")
  func noRetention() {
    weak var weakLabel: Label?
    weak var weakSource: PassthroughSubject<String, Never>?
    let source = PassthroughSubject<String, Never>()
    do {
      let label = Label()
      weakLabel = label
      label.bind(receiveOn: ImmediateScheduler.shared, \.text) <~ source
      source.send("a")
      #expect(label.text == "a")
    }
    #expect(weakLabel == nil)
    let label = Label()
    do {
      let other = PassthroughSubject<String, Never>()
      weakSource = other
      label.bind(receiveOn: ImmediateScheduler.shared, \.text) <~ other
      other.send("b")
    }
    // As in Combine: the binding's subscription keeps the subject; its completion ends both.
    #expect(weakSource != nil)
    weakSource?.send(completion: .finished)
    #expect(weakSource == nil)
    #expect(label.text == "b")
  }

  @Test("once the target is gone, nothing is delivered and the next value cancels the binding")
  func targetGone() {
    let source = PassthroughSubject<String, Never>()
    let probe = SubscriptionProbe(source)
    let handled = LockedBox<[String]>([])
    var label: Label? = Label()
    label!.bind(receiveOn: ImmediateScheduler.shared) { (_: Label, value: String) in
      handled.withLock { $0.append(value) }
    } <~ probe.publisher
    source.send("a")
    label = nil
    source.send("b")
    #expect(handled.withLock { $0 } == ["a"])
    #expect(probe.cancels == 1)
  }
}

extension MainQueueTests {
  @Suite("BindTarget on the main queue")
  struct BindTargetMainQueueTests {
    @Test("the default scheduler delivers on the main queue")
    func defaultSchedulerIsMain() async {
      let label = Label()
      let log = EventLog()
      let values = PassthroughSubject<String, Never>()
      label.bind { (_: Label, value: String) in
        log.append("\(value) on main: \(MainQueue.isCurrent)")
      }
        <~ values
      values.send("x")
      await MainQueue.drain()
      #expect(log.values == ["x on main: true"])
    }
  }
}
