import CombineExCore
import CombineExTesting
import Testing

private struct Point {
  let x: Int
  let y: Int
  let z: Int
}

@Suite("map(keyPath)")
struct MapKeyPathTests {
  @Test("map with one key path publishes that property of every element")
  func oneKeyPath() {
    let recorder = [Point(x: 1, y: 2, z: 3), Point(x: 4, y: 5, z: 6)].publisher
      .map(\.y)
      .record()
    #expect(recorder.values == [2, 5])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("map with two key paths publishes a tuple of both properties")
  func twoKeyPaths() {
    let recorder = [Point(x: 1, y: 2, z: 3), Point(x: 4, y: 5, z: 6)].publisher
      .map(\.x, \.z)
      .record()
    #expect(recorder.values.map { [$0.0, $0.1] } == [[1, 3], [4, 6]])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("map with three key paths publishes a tuple of the three properties")
  func threeKeyPaths() {
    let recorder = [Point(x: 1, y: 2, z: 3)].publisher
      .map(\.z, \.y, \.x)
      .record()
    #expect(recorder.values.map { [$0.0, $0.1, $0.2] } == [[3, 2, 1]])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("key-path maps have Combine's types, and expose their key paths")
  func resultTypes() {
    let upstream = [Point(x: 1, y: 2, z: 3)].publisher
    let one: Publishers.MapKeyPath<Publishers.Sequence<[Point], Never>, Int> = upstream.map(\.x)
    let two: Publishers.MapKeyPath2<Publishers.Sequence<[Point], Never>, Int, Int> =
      upstream.map(\.x, \.y)
    let three: Publishers.MapKeyPath3<Publishers.Sequence<[Point], Never>, Int, Int, Int> =
      upstream.map(\.x, \.y, \.z)
    let inferred = upstream.map(\.x)
    #expect(
      type(of: inferred) == Publishers.MapKeyPath<Publishers.Sequence<[Point], Never>, Int>.self)
    #expect(one.keyPath == \Point.x)
    #expect(two.keyPath0 == \Point.x && two.keyPath1 == \Point.y)
    #expect(three.keyPath0 == \Point.x && three.keyPath1 == \Point.y && three.keyPath2 == \Point.z)
  }

  @Test("the upstream's failure is passed on")
  func upstreamFailure() {
    let subject = PassthroughSubject<Point, TestError>()
    let one = subject.map(\.x).record()
    let two = subject.map(\.x, \.y).record()
    let three = subject.map(\.x, \.y, \.z).record()
    subject.send(Point(x: 1, y: 2, z: 3))
    subject.send(completion: .failure(TestError(4)))
    #expect(one.values == [1])
    #expect(one.receivedCompletion == .failure(TestError(4)))
    #expect(two.receivedCompletion == .failure(TestError(4)))
    #expect(three.receivedCompletion == .failure(TestError(4)))
  }

  @Test("an empty upstream finishes without values")
  func emptyUpstream() {
    let recorder = Empty<Point, Never>().map(\.x, \.y, \.z).record()
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("demand passes straight through: .none, then .max(1) at a time")
  func demandPassesThrough() {
    let upstream = ManualUpstream<Point, Never>()
    let recorder = upstream.map(\.x).record(initialDemand: .none)
    #expect(upstream.requests.isEmpty)
    recorder.request(.max(1))
    #expect(upstream.send(Point(x: 7, y: 0, z: 0)) == .none)
    recorder.request(.max(2))
    #expect(upstream.requests == [.max(1), .max(2)])
    #expect(recorder.values == [7])
  }

  @Test("cancel reaches the upstream, stops delivery and frees the pipeline")
  func cancellation() {
    expectCancellationRules { $0.map(\.bitWidth) }
    expectCancellationRules { $0.map(\.bitWidth, \.nonzeroBitCount) }
    expectCancellationRules { $0.map(\.bitWidth, \.nonzeroBitCount, \.leadingZeroBitCount) }
  }
}
