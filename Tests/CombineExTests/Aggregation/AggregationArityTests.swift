import CombineEx
import Testing

private typealias Subject = PassthroughSubject<Int, Never>
private typealias P = AnyPublisher<Int, Never>

/// The values of a tuple of `Int`s, in order.
private func elements(_ tuple: Any) -> [Int] {
  Mirror(reflecting: tuple).children.map { $0.value as! Int }
}

/// The static `combineLatest` of `s.count` (2 to 10) subjects, its tuples as arrays.
private func staticLatest(_ s: [Subject]) -> AnyPublisher<[Int], Never> {
  switch s.count {
  case 2: P.combineLatest(s[0], s[1]).map(elements).eraseToAnyPublisher()
  case 3: P.combineLatest(s[0], s[1], s[2]).map(elements).eraseToAnyPublisher()
  case 4: P.combineLatest(s[0], s[1], s[2], s[3]).map(elements).eraseToAnyPublisher()
  case 5: P.combineLatest(s[0], s[1], s[2], s[3], s[4]).map(elements).eraseToAnyPublisher()
  case 6:
    P.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5]).map(elements).eraseToAnyPublisher()
  case 7:
    P.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6]).map(elements)
      .eraseToAnyPublisher()
  case 8:
    P.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]).map(elements)
      .eraseToAnyPublisher()
  case 9:
    P.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8]).map(elements)
      .eraseToAnyPublisher()
  default:
    P.combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8], s[9]).map(elements)
      .eraseToAnyPublisher()
  }
}

/// `s[0].combineLatest` with `s.count - 1` (4 to 9) others, its tuples as arrays.
private func instanceLatest(_ s: [Subject]) -> AnyPublisher<[Int], Never> {
  switch s.count {
  case 5: s[0].combineLatest(s[1], s[2], s[3], s[4]).map(elements).eraseToAnyPublisher()
  case 6: s[0].combineLatest(s[1], s[2], s[3], s[4], s[5]).map(elements).eraseToAnyPublisher()
  case 7:
    s[0].combineLatest(s[1], s[2], s[3], s[4], s[5], s[6]).map(elements).eraseToAnyPublisher()
  case 8:
    s[0].combineLatest(s[1], s[2], s[3], s[4], s[5], s[6], s[7]).map(elements)
      .eraseToAnyPublisher()
  case 9:
    s[0].combineLatest(s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8]).map(elements)
      .eraseToAnyPublisher()
  default:
    s[0].combineLatest(s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8], s[9]).map(elements)
      .eraseToAnyPublisher()
  }
}

/// `s[0].zip` with `s.count - 1` (4 to 9) others, its tuples as arrays.
private func instanceZip(_ s: [Subject]) -> AnyPublisher<[Int], Never> {
  switch s.count {
  case 5: s[0].zip(s[1], s[2], s[3], s[4]).map(elements).eraseToAnyPublisher()
  case 6: s[0].zip(s[1], s[2], s[3], s[4], s[5]).map(elements).eraseToAnyPublisher()
  case 7: s[0].zip(s[1], s[2], s[3], s[4], s[5], s[6]).map(elements).eraseToAnyPublisher()
  case 8:
    s[0].zip(s[1], s[2], s[3], s[4], s[5], s[6], s[7]).map(elements).eraseToAnyPublisher()
  case 9:
    s[0].zip(s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8]).map(elements).eraseToAnyPublisher()
  default:
    s[0].zip(s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8], s[9]).map(elements)
      .eraseToAnyPublisher()
  }
}

/// The fixed-arity aggregates keep each input's values in a place of their own, generated per
/// input count: every count is checked, with a different value from every input.
@Suite("Aggregation: every input count keeps each input's values in its own position")
struct AggregationArityTests {
  /// Every fixed-arity `combineLatest`: (form, input count).
  static let latestArities = (2...10).map { ("static", $0) } + (5...10).map { ("instance", $0) }

  private func latest(_ form: String, _ subjects: [Subject]) -> AnyPublisher<[Int], Never> {
    form == "static" ? staticLatest(subjects) : instanceLatest(subjects)
  }

  @Test(
    "combineLatest: the first output has every input's value, each later one the new value",
    arguments: latestArities)
  func combineLatestPositions(form: String, count: Int) {
    let subjects = (0..<count).map { _ in Subject() }
    let recorder = latest(form, subjects).record()
    // Inputs publish last to first, the first of them twice, so each slot is written before
    // the tuple is made.
    subjects[count - 1].send(-1)
    for index in (0..<count).reversed() { subjects[index].send(100 + index) }
    let first = (0..<count).map { 100 + $0 }
    #expect(recorder.values == [first])
    for index in 0..<count { subjects[index].send(200 + index) }
    #expect(recorder.values.count == count + 1)
    for index in 0..<count {
      let expected = (0..<count).map { $0 <= index ? 200 + $0 : 100 + $0 }
      #expect(recorder.values[index + 1] == expected, "after input \(index) published")
    }
  }

  @Test(
    "combineLatest: an input that finishes without a value ends it, whichever input it is",
    arguments: latestArities)
  func combineLatestFinishesWithoutValue(form: String, count: Int) {
    for silent in 0..<count {
      let subjects = (0..<count).map { _ in Subject() }
      let recorder = latest(form, subjects).record()
      for index in 0..<count where index != silent { subjects[index].send(index) }
      let other = silent == 0 ? 1 : 0
      subjects[other].send(completion: .finished)
      #expect(recorder.receivedCompletion == nil, "input \(other) finished with a value")
      subjects[silent].send(completion: .finished)
      #expect(recorder.receivedCompletion == .finished, "input \(silent) finished without one")
      #expect(recorder.values.isEmpty)
    }
  }

  @Test(
    "combineLatest: once every input has a value, it ends only when all have finished",
    arguments: latestArities)
  func combineLatestFinishesWhenAllFinished(form: String, count: Int) {
    let subjects = (0..<count).map { _ in Subject() }
    let recorder = latest(form, subjects).record()
    for index in 0..<count { subjects[index].send(index) }
    for index in 0..<count - 1 { subjects[index].send(completion: .finished) }
    subjects[count - 1].send(50)
    #expect(recorder.receivedCompletion == nil)
    #expect(recorder.values.last == (0..<count).map { $0 == count - 1 ? 50 : $0 })
    subjects[count - 1].send(completion: .finished)
    #expect(recorder.receivedCompletion == .finished)
  }

  @Test("zip: each output has the i-th value of every input, in order", arguments: 5...10)
  func zipPositions(count: Int) {
    let subjects = (0..<count).map { _ in Subject() }
    let recorder = instanceZip(subjects).record()
    for round in 1...3 {
      for index in (0..<count).reversed() { subjects[index].send(round * 100 + index) }
    }
    #expect(recorder.values == (1...3).map { round in (0..<count).map { round * 100 + $0 } })
  }

  @Test(
    "zip: a finished input with no value waiting ends it, whichever input it is",
    arguments: 5...10)
  func zipFinishesWhenAnInputRunsOut(count: Int) {
    for drained in 0..<count {
      let subjects = (0..<count).map { _ in Subject() }
      let recorder = instanceZip(subjects).record()
      for index in 0..<count where index != drained { subjects[index].send(index) }
      subjects[drained == 0 ? 1 : 0].send(completion: .finished)
      #expect(recorder.receivedCompletion == nil, "an input with a value waiting finished")
      subjects[drained].send(completion: .finished)
      #expect(recorder.receivedCompletion == .finished, "input \(drained) finished with none")
    }
  }
}
